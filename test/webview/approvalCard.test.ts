import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { agentTurn, approval, DIFF, toolCall } from './support/agentBuilders';
import { conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: approval cards', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const card = (id = 'ap1') => page().locator(`cw-approval-card section[data-approval=${id}]`);

  const waiting = toolCall('c-edit', {
    tool: 'edit_file',
    displayName: 'Edit file',
    kind: 'write',
    status: 'awaiting-approval',
    durationMs: undefined,
    output: undefined,
  });
  const started: HostToWebview = {
    type: 'agentTurn/started',
    conversationId: 'c1',
    user: user('u2', 'Rename b'),
    turn: agentTurn('t1', { status: 'streaming', toolCalls: [waiting] }),
  };

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'hi')]) }), { type: 'chat/mode', mode: 'agent' }, started);
  });

  it('shows the tool, its kind, why, and the diff as text with added and removed lines marked', async () => {
    await view().send(approval());
    const c = card();
    await c.waitFor();
    assert.equal(await page().locator('cw-message[data-id=t1] cw-approval-card').count(), 1, 'the card sits in its turn');
    assert.equal(await c.locator('.title').textContent(), 'Edit file');
    assert.equal(await c.locator('.kind').textContent(), 'write');
    assert.equal(await c.locator('.why').textContent(), 'Edit file changes files: it asks before it runs.');
    assert.match((await c.locator('.target').textContent()) ?? '', /edit src\/a\.ts\s*\+1\s*−1/);
    assert.equal(await c.locator('pre.diff').textContent(), DIFF);
    assert.deepEqual(await c.locator('pre.diff span.add').allTextContents(), ['+export const b = "<img src=x onerror=alert(1)>";\n']);
    assert.deepEqual(await c.locator('pre.diff span.del').allTextContents(), ['-export const b = 2;\n']);
    assert.equal(await c.locator('img').count(), 0, 'the diff stays text');
    assert.deepEqual(
      await c
        .locator('.buttons button')
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ['Open diff', 'Allow once', 'Allow in this conversation', 'Deny'],
    );
  });

  it('Open diff posts editor/diff; Allow once posts agent/approve and the card waits, then shows the outcome when settled', async () => {
    const v = view();
    await v.send(approval());
    await card().locator('button.open-diff').click();
    assert.deepEqual(await v.waitForPosted('editor/diff'), { type: 'editor/diff', approvalId: 'ap1' });
    await card().locator('button.allow-once').click();
    assert.deepEqual(await v.waitForPosted('agent/approve'), { type: 'agent/approve', approvalId: 'ap1', decision: 'allow-once' });
    assert.equal(await card().getAttribute('data-state'), 'answered');
    assert.equal(await card().locator('button.deny').isDisabled(), true, 'one answer per card');
    await v.send({ type: 'agent/approvalSettled', approvalId: 'ap1', callId: 'c-edit', outcome: 'allow-once' });
    await eventually(async () => assert.equal(await card().getAttribute('data-state'), 'settled'));
    assert.equal(await card().locator('.outcome').textContent(), 'Allowed once');
    assert.equal(await card().locator('button').count(), 0);
    await v.send({ type: 'agentTurn/done', turn: agentTurn('t1', { toolCalls: [{ ...waiting, status: 'ok' }] }) });
    await eventually(async () => assert.equal(await page().locator('cw-approval-card').count(), 0, 'a finished turn drops its cards'));
    assert.equal((await v.postedOfType('agent/approve')).length, 1);
  });

  it('Deny sends the optional reason; Enter in the reason field denies too', async () => {
    const v = view();
    await v.send(approval(), approval({ approvalId: 'ap2', callId: 'c2' }));
    await card('ap1').locator('input.reason').fill('  not that file  ');
    await card('ap1').locator('button.deny').click();
    assert.deepEqual(await v.waitForPosted('agent/approve'), { type: 'agent/approve', approvalId: 'ap1', decision: 'deny', reason: 'not that file' });
    await card('ap2').locator('input.reason').fill('use the other helper');
    await card('ap2').locator('input.reason').press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/approve', 2), { type: 'agent/approve', approvalId: 'ap2', decision: 'deny', reason: 'use the other helper' });
  });

  it('a command shows the command and its folder; no "Allow in this conversation" when it would not be remembered; keyboard only', async () => {
    const v = view();
    await v.send(
      approval({
        tool: 'run_command',
        displayName: 'Run command',
        kind: 'execute',
        preview: { type: 'command', command: 'npm test && rm -rf <b>x</b>', cwd: 'packages/web', timeoutMs: 60000 },
        canAllowForConversation: false,
      }),
    );
    const c = card();
    assert.equal(await c.locator('pre.command').textContent(), 'npm test && rm -rf <b>x</b>');
    assert.equal(await c.locator('.cwd').textContent(), 'in packages/web');
    assert.equal(await c.locator('b').count(), 0);
    assert.equal(await c.locator('button.allow-conversation').count(), 0);
    assert.equal(await c.locator('button.open-diff').count(), 0, 'no diff to open for a command');
    await c.locator('button.allow-once').focus();
    await page().keyboard.press('Tab');
    await page().keyboard.press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/approve'), { type: 'agent/approve', approvalId: 'ap1', decision: 'deny' });
  });

  it('sent again after a reload, a card is not duplicated; Stop settles it as cancelled', async () => {
    const v = view();
    await v.send(approval(), approval(), approval({ preview: { type: 'arguments', text: '{"x": 1}' } }));
    assert.equal(await page().locator('cw-approval-card').count(), 1);
    assert.equal(await card().locator('pre.arguments').textContent(), '{"x": 1}');
    await v.send({ type: 'agent/approvalSettled', approvalId: 'ap1', callId: 'c-edit', outcome: 'cancelled' });
    await eventually(async () => assert.equal(await card().getAttribute('data-outcome'), 'cancelled'));
  });

  it("a sub-agent's card sits under the sub-agent's row, names it, and stays visible when the block is closed", async () => {
    const v = view();
    const investigator = toolCall('c2', {
      tool: 'codebase_investigator',
      displayName: 'Codebase investigator',
      kind: 'think',
      status: 'running',
      durationMs: undefined,
      output: undefined,
    });
    const subWrite = toolCall('k1', {
      tool: 'write_file',
      displayName: 'Write file',
      kind: 'write',
      parentCallId: 'c2',
      status: 'awaiting-approval',
      durationMs: undefined,
      output: undefined,
    });
    await v.send(
      { type: 'agentTurn/toolCall', turnId: 't1', call: investigator },
      { type: 'agentTurn/toolCall', turnId: 't1', call: subWrite },
      approval({ approvalId: 'ap-sub', callId: 'k1', tool: 'write_file', displayName: 'Write file', parentCallId: 'c2' }),
      approval(),
    );
    const turn = page().locator('cw-message[data-id=t1]');
    const underRow = turn.locator('li.call-item[data-call=c2] > .nested-approvals cw-approval-card section[data-approval=ap-sub]');
    await underRow.waitFor();
    assert.equal(await underRow.getAttribute('data-parent-call'), 'c2');
    assert.equal((await underRow.locator('.via').textContent())?.trim(), 'Asked by the sub-agent Codebase investigator');
    assert.equal(await turn.locator('.work cw-approval-card section[data-approval=ap1]').count(), 0, "the agent's own card is not in the block");
    assert.equal(await turn.locator('cw-approval-card section[data-approval=ap1] .via').count(), 0);
    assert.equal(await turn.locator('cw-approval-card section[data-approval=ap1]').count(), 1);

    await turn.locator('.work-head').click(); // close the block: the sub-agent's card must not disappear with it
    const outside = turn.locator('cw-approval-card section[data-approval=ap-sub]');
    await eventually(async () => assert.equal(await turn.locator('.work cw-approval-card').count(), 0));
    assert.equal(await outside.count(), 1);
    assert.equal((await outside.locator('.via').textContent())?.trim(), 'Asked by the sub-agent Codebase investigator');
    await outside.locator('button.allow-once').click();
    assert.deepEqual(await v.waitForPosted('agent/approve'), { type: 'agent/approve', approvalId: 'ap-sub', decision: 'allow-once' });
  });

  it('a card whose turn is not shown (another conversation is open) is still shown and answerable', async () => {
    const v = view();
    await v.send({ type: 'conversation/load', conversation: conversation('c9', [user('u9', 'other')]) }, approval());
    const orphan = page().locator('cw-app .orphan-approvals cw-approval-card');
    await orphan.waitFor();
    await orphan.locator('button.allow-conversation').click();
    assert.deepEqual(await v.waitForPosted('agent/approve'), { type: 'agent/approve', approvalId: 'ap1', decision: 'allow-conversation' });
  });
});
