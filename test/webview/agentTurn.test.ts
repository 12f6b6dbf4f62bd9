import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { agentTurn, toolCall } from './support/agentBuilders';
import { conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: agent turns', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const turn = () => page().locator('cw-message[data-id=t1]');
  const rows = () => turn().locator('cw-tool-call-row .call');
  const callIds = () => rows().evaluateAll((els) => els.map((e) => `${e.getAttribute('data-call')}:${e.getAttribute('data-status')}`));

  const started: HostToWebview = {
    type: 'agentTurn/started',
    conversationId: 'c1',
    user: user('u2', 'Where is b defined?'),
    turn: agentTurn('t1', { status: 'streaming', createdAt: new Date().toISOString() }),
  };
  const investigator = toolCall('c2', {
    tool: 'codebase_investigator',
    displayName: 'Codebase investigator',
    kind: 'think',
    argsSummary: 'task="find b"',
    args: { task: 'find b' },
    status: 'running',
    durationMs: undefined,
    output: undefined,
  });

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'hi')]) }), { type: 'chat/mode', mode: 'agent' });
  });

  it('streams a turn: live block with rows, a sub-agent call nested under its parent, thinking collapsed, warnings and the fallback visible', async () => {
    const v = view();
    await v.send(started);
    await turn().locator('.work-head').waitFor();
    assert.match((await turn().locator('.work-head').textContent()) ?? '', /Working…\s*(\d+ min )?\d+ s/);
    await v.send(
      { type: 'agentTurn/toolCall', turnId: 't1', call: toolCall('c1', { status: 'running', durationMs: undefined, output: undefined }) },
      { type: 'agentTurn/reasoning', turnId: 't1', text: 'The user wants b. ' },
      { type: 'agentTurn/reasoning', turnId: 't1', text: 'Search first.' },
    );
    await eventually(async () => assert.deepEqual(await callIds(), ['c1:running']));
    await v.send(
      { type: 'agentTurn/toolCall', turnId: 't1', call: toolCall('c1', { tokens: { input: 10, output: 5, total: 15 } }) },
      { type: 'agentTurn/toolCall', turnId: 't1', call: investigator },
      // The sub-agent numbers its own calls: the same id as a top-level call, told apart by parentCallId.
      {
        type: 'agentTurn/toolCall',
        turnId: 't1',
        call: toolCall('c1', {
          parentCallId: 'c2',
          displayName: 'Search files',
          tool: 'search_files',
          argsSummary: 'query="b ="',
          status: 'running',
          durationMs: undefined,
        }),
      },
      { type: 'agentTurn/warning', turnId: 't1', message: 'The workspace value of codewiki.agent.autoApprove is ignored.' },
      { type: 'agentTurn/fallback', turnId: 't1', reason: 'The server answered 400 to tool definitions.' },
      { type: 'agentTurn/usage', turnId: 't1', iterations: 2, tokens: { input: 1000, output: 234, total: 1234 } },
    );
    await eventually(async () => assert.deepEqual(await callIds(), ['c1:ok', 'c2:running', 'c1:running']));
    const nested = turn().locator('li.call-item[data-call=c2] ol.nested cw-tool-call-row');
    assert.equal(await nested.count(), 1, 'the sub-agent call sits under the call that started it');
    assert.equal(await nested.locator('.title').textContent(), 'Search files');
    const first = turn().locator('ol.calls:not(.nested) > li.call-item[data-call=c1] > cw-tool-call-row');
    assert.equal(await first.locator('.title').textContent(), 'Read file');
    assert.equal(await first.locator('.args').textContent(), 'path="src/a.ts"');
    assert.equal(await first.locator('.duration').textContent(), '12 ms');
    assert.equal(await first.locator('.tokens').textContent(), '15 tokens');
    assert.equal(await first.locator('.state').getAttribute('aria-label'), 'Done');

    const reasoning = turn().locator('details.reasoning');
    assert.equal(await reasoning.evaluate((d) => (d as unknown as { open: boolean }).open), false, 'thinking is collapsed');
    assert.equal(await reasoning.locator('.reasoning-text').textContent(), 'The user wants b. Search first.');
    assert.match((await turn().locator('.note.warning').first().textContent()) ?? '', /autoApprove is ignored/);
    assert.match((await turn().locator('.note.fallback').textContent()) ?? '', /answered 400 to tool definitions/);

    await v.send({ type: 'agentTurn/chunk', turnId: 't1', text: 'It is defined in ' }, { type: 'agentTurn/chunk', turnId: 't1', text: '`src/a.ts`.' });
    await eventually(async () => assert.equal(await turn().locator('.answer code').textContent(), 'src/a.ts'));
  });

  it('a row expands to the full input (JSON) and the output as text; markup in them stays text', async () => {
    const v = view();
    const call = toolCall('c1', {
      args: { path: 'src/a.ts', note: '<img src=x onerror=alert(1)>' },
      output: '<img src=x onerror="window.__pwned=1">\nline 2',
      approval: { decision: 'deny', by: 'user', reason: 'not now' },
      status: 'denied',
    });
    await v.send({ type: 'conversation/load', conversation: conversation('c1', [user('u1', 'q'), agentTurn('t1', { toolCalls: [call], answer: 'Done.' })]) });
    await turn().locator('.work-head').click();
    const row = turn().locator('cw-tool-call-row');
    await row.locator('button.row').click();
    assert.equal(await row.locator('button.row').getAttribute('aria-expanded'), 'true');
    assert.deepEqual(JSON.parse((await row.locator('pre.input').textContent()) ?? ''), call.args);
    assert.equal(await row.locator('pre.output').textContent(), '<img src=x onerror="window.__pwned=1">\nline 2');
    assert.equal(await row.locator('img').count(), 0, 'no element was made from the output');
    assert.equal(
      await row
        .locator('.approval')
        .textContent()
        .then((t) => t?.trim()),
      'Denied by you: not now',
    );
    assert.equal(await page().evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  });

  it('after the turn: one summary line (tools, time, tokens) that expands to the rows; the answer has Copy', async () => {
    const v = view();
    await v.send(started, { type: 'agentTurn/toolCall', turnId: 't1', call: toolCall('c1') });
    await rows().first().waitFor();
    const done = agentTurn('t1', {
      answer: 'b is in **src/a.ts**.',
      toolCalls: [toolCall('c1'), toolCall('c2', { displayName: 'Search files' }), toolCall('c3'), toolCall('c4', { parentCallId: 'c2' })],
      tokens: { input: 1000, output: 234, total: 1234 },
      stopReason: 'answered',
      durationMs: 12_300,
    });
    await v.send({ type: 'agentTurn/done', turn: done });
    const head = turn().locator('.work-head');
    await eventually(async () => assert.equal((await head.textContent())?.trim(), 'Used 4 tools · 12.3 s · 1,234 tokens', 'the time the host measured'));
    assert.equal(await head.getAttribute('aria-expanded'), 'false');
    assert.equal(await rows().count(), 0, 'collapsed after the turn');
    await head.click();
    await eventually(async () => assert.equal(await rows().count(), 4));
    assert.equal(await turn().locator('.answer strong').textContent(), 'src/a.ts');
    await turn().locator('.answer-actions button[data-action=copy]').click();
    assert.deepEqual(await v.waitForPosted('code/copy'), { type: 'code/copy', text: 'b is in **src/a.ts**.' });
    await page().locator('cw-composer button.send').waitFor();
  });

  it('an answer sent back is folded away above the answer that replaced it, live and when reloaded; Copy takes the answer', async () => {
    const v = view();
    const first = 'The billing module does it.';
    await v.send(
      started,
      { type: 'agentTurn/chunk', turnId: 't1', text: first },
      { type: 'agentTurn/warning', turnId: 't1', message: 'the answer named no file; CodeWiki asked the model which file it is' },
      { type: 'agentTurn/answerRestart', turnId: 't1', at: first.length },
      { type: 'agentTurn/chunk', turnId: 't1', text: '\n\nsrc/a.ts:1 does it.' },
    );
    const sentBack = turn().locator('details.sent-back');
    await eventually(async () => assert.equal((await turn().locator('.answer').textContent())?.trim(), 'src/a.ts:1 does it.'));
    assert.equal(await sentBack.getAttribute('open'), null, 'folded');
    assert.match((await sentBack.locator('summary').textContent()) ?? '', /Sent back \(the notes say why\)/);
    assert.equal((await sentBack.locator('.markdown').textContent())?.trim(), first);

    const done = agentTurn('t1', { answer: `${first}\n\nsrc/a.ts:1 does it.`, answerStart: first.length, stopReason: 'answered' });
    await v.send({ type: 'agentTurn/done', turn: done });
    await turn().locator('.answer-actions button[data-action=copy]').click();
    assert.deepEqual(await v.waitForPosted('code/copy'), { type: 'code/copy', text: 'src/a.ts:1 does it.' });

    await v.send({ type: 'conversation/load', conversation: conversation('c1', [user('u2', 'Where is b defined?'), done]) });
    await eventually(async () => assert.equal((await turn().locator('.answer').textContent())?.trim(), 'src/a.ts:1 does it.'));
    assert.equal((await turn().locator('details.sent-back .markdown').textContent())?.trim(), first, 'reloaded from history');
  });

  it('a saved agent-turn in conversation/load is restored collapsed, with its nested rows and the time it took', async () => {
    const v = view();
    const saved = agentTurn('t1', {
      answer: 'Answer.',
      toolCalls: [
        toolCall('c1', { displayName: 'Codebase investigator' }),
        toolCall('k1', { parentCallId: 'c1', displayName: 'List files' }),
        toolCall('c3', { status: 'error', error: 'ENOENT' }),
      ],
      tokens: { input: 1000, output: 234, total: 1234 },
      warnings: ['A warning that was saved'],
      durationMs: 65_000,
    });
    const older = agentTurn('t0', { answer: 'Before durations were saved.', toolCalls: [toolCall('c1')] });
    await v.send({ type: 'conversation/load', conversation: conversation('c1', [user('u0', 'q0'), older, user('u1', 'q'), saved]) });
    const head = turn().locator('.work-head');
    assert.equal((await head.textContent())?.trim(), 'Used 3 tools · 1 min 5 s · 1,234 tokens', 'a restored turn shows its time like a live one');
    assert.equal((await page().locator('cw-message[data-id=t0] .work-head').textContent())?.trim(), 'Used 1 tool', 'a turn saved without a time shows none');
    assert.match((await turn().locator('.note.warning').textContent()) ?? '', /A warning that was saved/);
    await head.click();
    assert.deepEqual(await callIds(), ['c1:ok', 'k1:ok', 'c3:error']);
    assert.equal(await turn().locator('li.call-item[data-call=c1] ol.nested li.call-item').getAttribute('data-call'), 'k1');
    assert.equal(await page().locator('cw-composer button.stop').count(), 0, 'a finished turn does not show Stop');
  });

  it('path:line references in the answer open the file; other text is left alone', async () => {
    const v = view();
    const answer =
      'See src/core/agent.ts:42 and `src/b.ts`, also `package.json`.\n\nNot these: https://example.com/x/y.ts, ../etc/passwd.ts, `console.log`, /abs/p.ts:3.\n\n```\nsrc/in/code.ts:1\n```';
    await v.send({ type: 'conversation/load', conversation: conversation('c1', [user('u1', 'q'), agentTurn('t1', { answer })]) });
    const links = turn().locator('.answer a.file-link');
    await eventually(async () => assert.equal(await links.count(), 3));
    assert.deepEqual(await links.evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-path'), e.getAttribute('data-line')])), [
      ['src/core/agent.ts:42', 'src/core/agent.ts', '42'],
      ['src/b.ts', 'src/b.ts', null],
      ['package.json', 'package.json', null],
    ]);
    assert.equal(
      await turn()
        .locator('.answer')
        .textContent()
        .then((t) => t?.includes('See src/core/agent.ts:42 and src/b.ts, also package.json.')),
      true,
      'the text reads the same',
    );
    await links.first().click();
    assert.deepEqual(await v.waitForPosted('file/open'), { type: 'file/open', path: 'src/core/agent.ts', line: 42 });
    await links.nth(1).press('Enter');
    assert.deepEqual(await v.waitForPosted('file/open', 2), { type: 'file/open', path: 'src/b.ts' });
  });

  it('a failed turn shows its error and Retry posts chat/retry with the turn id', async () => {
    const v = view();
    await v.send(started, {
      type: 'agentTurn/done',
      turn: agentTurn('t1', { status: 'error', error: 'The model server is not reachable.', stopReason: 'failed' }),
    });
    assert.match((await turn().locator('.error-message').textContent()) ?? '', /not reachable/);
    await turn().locator('button.retry').click();
    assert.deepEqual(await v.waitForPosted('chat/retry'), { type: 'chat/retry', messageId: 't1' });
  });

  it('Retry of a half-answered turn shows only the new answer, not the old one beside it', async () => {
    const v = view();
    await v.send(started, { type: 'agentTurn/chunk', turnId: 't1', text: 'Old **partial** answer' });
    await v.send({
      type: 'agentTurn/done',
      turn: agentTurn('t1', { status: 'error', answer: 'Old **partial** answer', error: 'connection reset', stopReason: 'failed' }),
    });
    await turn().locator('button.retry').click();
    await v.waitForPosted('chat/retry');
    await v.send(started); // the host restarts the turn under the same id, the answer empty
    const answer = turn().locator('.markdown.answer');
    await eventually(async () => assert.equal(await answer.textContent(), ''));
    await v.send({ type: 'agentTurn/chunk', turnId: 't1', text: 'New answer' }, { type: 'agentTurn/done', turn: agentTurn('t1', { answer: 'New answer' }) });
    await eventually(async () => assert.equal(await answer.textContent(), 'New answer\n'));
    assert.equal(await answer.locator('strong').count(), 0, 'nothing of the old answer is left');
  });

  it('a 200-call turn renders every row', async function () {
    this.timeout(60_000);
    const v = view();
    await v.send(started);
    await turn().locator('.work-head').waitFor();
    const messages: HostToWebview[] = [];
    for (let i = 0; i < 200; i++) {
      const call = toolCall(`c${i}`, { argsSummary: `path="src/file${i}.ts"`, status: 'running', durationMs: undefined });
      messages.push(
        { type: 'agentTurn/toolCall', turnId: 't1', call },
        { type: 'agentTurn/toolCall', turnId: 't1', call: { ...call, status: 'ok', durationMs: i, tokens: { input: i, output: 1, total: i + 1 } } },
      );
    }
    for (let i = 0; i < messages.length; i += 50) await v.send(...messages.slice(i, i + 50));
    await eventually(async () => assert.equal(await rows().count(), 200));
    assert.equal(await turn().locator('.call[data-status=ok]').count(), 200);
    assert.equal(await turn().locator('li.call-item[data-call=c199] .args').textContent(), 'path="src/file199.ts"');
  });
});
