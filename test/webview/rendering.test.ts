import { strict as assert } from 'node:assert';
import { agentRun, assistant, conversation, init, status, step, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: rendering', function () {
  const { view } = useWebview();

  const answer = 'Here is **bold** and a list:\n\n- one\n- two\n\n```ts\nconst x = 1 < 2;\n```\n';
  const chat = conversation('c1', [
    user('u1', 'How do I add?'),
    assistant('a1', answer),
    agentRun('r1', {
      answer: 'The folder holds **3** files.',
      runLogPath: '/logs/r1.jsonl',
      steps: [
        step('list', { tool: 'list_files', durationMs: 12, outputPreview: 'a.ts\nb.ts' }),
        step('summaries', { tool: 'llm', durationMs: 2400, tokens: 1234, attempts: 3, inputPreview: 'Summarize a.ts', outputPreview: 'It adds.' }),
        step('lint', { status: 'failed', error: 'exit 1' }),
        step('extra', { status: 'skipped' }),
      ],
    }),
  ]);

  it('posts webview/ready once and renders a conversation: user, assistant Markdown with a code block, an agent run with steps', async () => {
    const v = view();
    assert.equal((await v.postedOfType('webview/ready')).length, 1);
    await v.send(init({ conversation: chat }));
    const page = v.page;
    assert.equal(await page.locator('cw-message[data-id=u1] .text').textContent(), 'How do I add?');
    assert.equal(await page.locator('cw-message[data-id=a1] .markdown strong').textContent(), 'bold');
    assert.equal(await page.locator('cw-message[data-id=a1] .markdown li').count(), 2);
    assert.equal(await page.locator('cw-message[data-id=a1] cw-code-block code').textContent(), 'const x = 1 < 2;\n');
    assert.equal(await page.locator('cw-message[data-id=a1] cw-code-block .lang').textContent(), 'ts');

    const run = page.locator('cw-message[data-id=r1]');
    assert.equal(await run.locator('.run-title').textContent(), 'Summarize a folder');
    assert.deepEqual(await run.locator('.inputs dt').allTextContents(), ['path', 'depth']);
    assert.deepEqual(await run.locator('.inputs dd').allTextContents(), ['src', '2']);
    assert.deepEqual(await run.locator('li.step').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), [
      'success',
      'success',
      'failed',
      'skipped',
    ]);
    const summaries = run.locator('li.step[data-step=summaries]');
    assert.equal(await summaries.locator('.duration').textContent(), '2.4 s');
    assert.equal(await summaries.locator('.tokens').textContent(), '1,234 tokens');
    assert.equal(await summaries.locator('.retries').textContent(), '2 retries');
    assert.equal(await run.locator('.run-answer strong').textContent(), '3');
  });

  it('expands a step to show its input and output previews', async () => {
    const v = view();
    await v.send(init({ conversation: chat }));
    const summaries = v.page.locator('cw-message[data-id=r1] li.step[data-step=summaries]');
    assert.equal(await summaries.locator('.details').count(), 0);
    await summaries.locator('button.row').click();
    assert.equal(await summaries.locator('.input-preview').textContent(), 'Summarize a.ts');
    assert.equal(await summaries.locator('.output-preview').textContent(), 'It adds.');
    assert.equal(await summaries.locator('button.row').getAttribute('aria-expanded'), 'true');
    await summaries.locator('button.row').click();
    assert.equal(await summaries.locator('.details').count(), 0);
  });

  it('code block buttons post copy, insert and new file with the code and its language', async () => {
    const v = view();
    await v.send(init({ conversation: chat }));
    const block = v.page.locator('cw-message[data-id=a1] cw-code-block');
    await block.locator('button[data-action=copy]').click();
    await block.locator('button[data-action=insert]').click();
    await block.locator('button[data-action=newFile]').click();
    const posted = (await v.posted()).filter((m) => m.type.startsWith('code/'));
    assert.deepEqual(posted, [
      { type: 'code/copy', text: 'const x = 1 < 2;\n' },
      { type: 'code/insert', text: 'const x = 1 < 2;\n' },
      { type: 'code/newFile', text: 'const x = 1 < 2;\n', language: 'ts' },
    ]);
  });

  it('a finished run offers Copy, Insert, Save to file… and Open run log', async () => {
    const v = view();
    await v.send(init({ conversation: chat }));
    const run = v.page.locator('cw-message[data-id=r1] .run-actions');
    for (const action of ['copy', 'insert', 'save', 'runlog']) await run.locator(`button[data-action=${action}]`).click();
    const posted = (await v.posted()).filter((m) => m.type !== 'webview/ready');
    assert.deepEqual(posted, [
      { type: 'code/copy', text: 'The folder holds **3** files.' },
      { type: 'code/insert', text: 'The folder holds **3** files.' },
      { type: 'answer/save', text: 'The folder holds **3** files.' },
      { type: 'runLog/open', runId: 'r1' },
    ]);
  });

  it('shows what to configure when no endpoint or model is set, with Open settings and Set API key', async () => {
    const v = view();
    await v.send(init({ status: status({ configured: false, baseUrl: '', model: undefined, toolModel: undefined }) }));
    const setup = v.page.locator('cw-empty-state .setup');
    const text = await setup.textContent();
    assert.match(text ?? '', /codewiki\.baseUrl/);
    assert.match(text ?? '', /codewiki\.model/);
    await setup.locator('button.open-settings').click();
    await setup.locator('button.set-key').click();
    const posted = (await v.posted()).filter((m) => m.type !== 'webview/ready');
    assert.deepEqual(posted, [{ type: 'settings/open', setting: 'baseUrl' }, { type: 'apiKey/set' }]);
  });

  it('shows the model and tool model in the status bar, and follows status/update', async () => {
    const v = view();
    await v.send(init());
    const bar = v.page.locator('cw-status-bar');
    assert.match((await bar.locator('.model').textContent()) ?? '', /llama3\.1:8b/);
    assert.match((await bar.locator('.tool-model').textContent()) ?? '', /qwen2\.5:3b/);
    await v.send({ type: 'status/update', status: status({ model: 'gpt-4o-mini', toolModel: undefined, trusted: false }) });
    await eventually(async () => assert.match((await bar.locator('.model').textContent()) ?? '', /gpt-4o-mini/));
    assert.equal(await bar.locator('.tool-model').count(), 0);
    assert.match((await bar.locator('.restricted').textContent()) ?? '', /Restricted Mode/);
    await bar.locator('.model').click();
    assert.deepEqual(await v.waitForPosted('settings/open'), { type: 'settings/open', setting: 'model' });
  });

  it('loads the codicon font from the bundle so icons render inside shadow DOM', async () => {
    const v = view();
    await v.send(init({ conversation: chat }));
    await v.page.locator('cw-message[data-id=a1] cw-code-block button[data-action=copy]').waitFor();
    // The glyphs are drawn from a FontFace the page declared (shadow roots cannot declare one).
    await eventually(async () => {
      const faces = await v.page.evaluate(`[...document.fonts].map((f) => f.family.replace(/"/g, '') + ':' + f.status)`);
      assert.ok((faces as string[]).includes('codicon:loaded'), `codicon font loaded: ${faces}`);
    });
    assert.ok(
      v.requests.some((url) => url.includes('/codicon.ttf')),
      'the font came from the bundle folder',
    );
  });
});
