import { strict as assert } from 'node:assert';
import { agentRun, assistant, conversation, init, step, summary, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: history', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const rows = () => page().locator('cw-history li[data-id]');
  const row = (id: string) => page().locator(`cw-history li[data-id=${id}]`);
  const items = [summary('c1', 'Adding numbers'), summary('c2', 'Refactor the parser', { messageCount: 12 }), summary('c3', 'Release notes')];

  beforeEach(async () => {
    const v = view();
    await v.send(init({ conversation: conversation('c1', [user('u1', 'hi'), assistant('a1', 'hello')]) }));
    await page().locator('cw-composer textarea').fill('/history');
    await page().locator('cw-composer textarea').press('Enter');
    await v.waitForPosted('history/request');
    await v.send({ type: 'history/list', items, query: '' });
    await eventually(async () => assert.equal(await rows().count(), 3));
  });

  it('lists conversations and searches through the host', async () => {
    const v = view();
    assert.match((await row('c2').textContent()) ?? '', /Refactor the parser[\s\S]*12 messages/);
    await page().locator('cw-history input[type=search]').pressSequentially('parser');
    // Debounced: how many requests a slow machine's typing produces varies; the one for the final text is what counts.
    await v.waitForPostedMatching('history/request', (m) => m.query === 'parser');
    await v.send({ type: 'history/list', items: items.slice(0, 1), query: 'stale' });
    await v.send({ type: 'history/list', items: [items[1]], query: 'parser' });
    await eventually(async () => assert.deepEqual(await rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), ['c2']));
  });

  it('opens a conversation: history/open, then conversation/load restores it fully, agent steps included', async () => {
    const v = view();
    await row('c2').locator('button.open').click();
    assert.deepEqual(await v.waitForPosted('history/open'), { type: 'history/open', id: 'c2' });
    const run = agentRun('r9', { answer: 'Done.', steps: [step('scan', { durationMs: 5 }), step('write', { status: 'failed', error: 'disk full' })] });
    await v.send({
      type: 'conversation/load',
      conversation: conversation('c2', [user('u9', 'Refactor it'), assistant('a9', 'Sure'), run], 'Refactor the parser'),
    });
    await page().locator('cw-message[data-id=r9]').waitFor();
    assert.equal(await page().locator('cw-history').count(), 0, 'the chat is shown again');
    assert.equal(await page().locator('cw-message[data-id=u1]').count(), 0, 'the old conversation is replaced');
    assert.deepEqual(
      await page()
        .locator('cw-message[data-id=r9] li.step')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
      ['success', 'failed'],
    );
  });

  it('renames inline: Enter saves (history/rename), Esc cancels', async () => {
    const v = view();
    await row('c1').locator('button.rename-button').click();
    const input = row('c1').locator('input.rename');
    await input.press('Escape');
    assert.equal(await input.count(), 0);
    await row('c1').locator('button.rename-button').click();
    await input.fill('Arithmetic');
    await input.press('Enter');
    assert.deepEqual(await v.waitForPosted('history/rename'), { type: 'history/rename', id: 'c1', title: 'Arithmetic' });
    assert.equal(await row('c1').locator('.title').textContent(), 'Arithmetic');
    assert.equal((await v.postedOfType('history/rename')).length, 1, 'Enter saved once (the blur that follows does not save again)');
  });

  it('deletes only after confirming', async () => {
    const v = view();
    await row('c3').locator('button.delete').click();
    await row('c3').locator('button.cancel-delete').click();
    assert.equal((await v.postedOfType('history/delete')).length, 0);
    await row('c3').locator('button.delete').click();
    assert.match((await row('c3').textContent()) ?? '', /Delete “Release notes”\?/);
    await row('c3').locator('button.confirm-delete').click();
    assert.deepEqual(await v.waitForPosted('history/delete'), { type: 'history/delete', id: 'c3' });
    assert.equal(await row('c3').count(), 0);
  });

  it('exports to Markdown and goes back to the chat', async () => {
    const v = view();
    await row('c2').locator('button.export').click();
    assert.deepEqual(await v.waitForPosted('history/export'), { type: 'history/export', id: 'c2' });
    await page().locator('cw-history button.back').click();
    await page().locator('cw-message[data-id=a1]').waitFor();
  });

  it('the host can show the history (view title button): the panel asks for the list itself', async () => {
    const v = view();
    await page().locator('cw-history button.back').click();
    await v.clearPosted();
    await v.send({ type: 'ui/show', view: 'history' });
    assert.deepEqual(await v.waitForPosted('history/request'), { type: 'history/request', query: '' });
  });
});

describe('webview: history panel restored after a reload', function () {
  const { view } = useWebview({ state: { version: 1, draft: '', panel: 'history', pickerQuery: '', historyQuery: 'parser' } });

  it('reopens the history with its search, after posting webview/ready', async () => {
    const v = view();
    const request = await v.waitForPosted('history/request');
    assert.deepEqual(request, { type: 'history/request', query: 'parser' });
    assert.deepEqual(
      (await v.posted()).map((m) => m.type),
      ['webview/ready', 'history/request'],
    );
    await v.send(init(), { type: 'history/list', items: [summary('c2', 'Refactor the parser')], query: 'parser' });
    await eventually(async () => assert.equal(await v.page.locator('cw-history li[data-id=c2]').count(), 1));
    assert.equal(await v.page.locator('cw-history input[type=search]').inputValue(), 'parser');
  });
});
