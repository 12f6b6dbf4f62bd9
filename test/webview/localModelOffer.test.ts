import { strict as assert } from 'node:assert';
import { init, status } from './support/builders';
import { useWebview } from './support/webviewPage';

/** Issue 22: with nothing configured, the chat view's setup offers the machine's local model beside the settings. */
describe('webview: the local model in the setup', function () {
  const { view } = useWebview();
  const unconfigured = { configured: false, baseUrl: '', model: undefined, toolModel: undefined };

  it('names the local model the host offers, and Start local model asks the host to start it', async () => {
    const v = view();
    await v.send(init({ status: status({ ...unconfigured, localModel: 'qwen2.5-coder-1.5b-instruct' }) }));
    const setup = v.page.locator('cw-empty-state .setup');
    assert.match((await setup.locator('.local-model').textContent()) ?? '', /qwen2\.5-coder-1\.5b-instruct.*on llama\.cpp.*about 15 minutes, once/);
    await setup.locator('button.start-local-model').click();
    assert.deepEqual(await v.waitForPosted('localModel/start'), { type: 'localModel/start' });
  });

  it('offers no local model when the host names none (an endpoint half set, or CODEWIKI_LOCAL_MODEL=off)', async () => {
    const v = view();
    await v.send(init({ status: status(unconfigured) }));
    const setup = v.page.locator('cw-empty-state .setup');
    await setup.locator('button.open-settings').waitFor();
    assert.equal(await setup.locator('button.start-local-model').count(), 0);
    assert.equal(await setup.locator('.local-model').count(), 0);
  });

  it('while it starts, the host says so in place of the setup', async () => {
    const v = view();
    const problem = 'The local model (qwen2.5-coder-1.5b-instruct on llama.cpp) is starting: the notification shows its progress.';
    await v.send(init({ status: status({ ...unconfigured, problem }) }));
    const setup = v.page.locator('cw-empty-state .setup');
    assert.equal((await setup.locator('.problem').textContent())?.trim(), problem);
    assert.equal(await setup.locator('button.start-local-model').count(), 0);
  });
});
