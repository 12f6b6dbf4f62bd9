import { strict as assert } from 'node:assert';
import { agentRun, assistant, conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** A reasoning model's thinking, as the user sees it in Chat mode and in /agent answers (real Chromium, the built webview). */
describe('webview: thinking is shown as thinking, collapsed, apart from the answer', () => {
  const { view } = useWebview();

  it('chat: streamed thinking collects in a closed "Thinking" block; the answer\'s Markdown never contains it', async () => {
    const v = view();
    await v.send(init({ conversation: conversation('c1', []) }));
    await v.send(
      { type: 'chat/started', conversationId: 'c1', user: user('u1', 'Hi'), assistant: assistant('a1', '', { status: 'streaming' }) },
      { type: 'chat/reasoning', messageId: 'a1', text: 'Is **src/plan.ts** ' },
      { type: 'chat/reasoning', messageId: 'a1', text: 'relevant?' },
      { type: 'chat/chunk', messageId: 'a1', text: 'Hello **there**' },
    );
    const message = v.page.locator('cw-message[data-id=a1]');
    await eventually(async () => assert.equal((await message.locator('.markdown').textContent())?.trim(), 'Hello there'));
    const thinking = message.locator('details.reasoning');
    assert.equal(await thinking.getAttribute('open'), null, 'collapsed');
    assert.equal(await message.locator('pre.reasoning-text').textContent(), 'Is **src/plan.ts** relevant?', 'shown as plain text, not Markdown');
    assert.equal(await message.locator('.markdown strong').textContent(), 'there');

    await v.send({ type: 'chat/done', message: assistant('a1', 'Hello **there**', { reasoning: 'Is **src/plan.ts** relevant?' }) });
    await thinking.locator('summary').click();
    assert.equal(await thinking.getAttribute('open'), '', 'opens on a click');
  });

  it("/agent: a run's thinking sits above its answer, collapsed, also when the conversation is loaded from history", async () => {
    const v = view();
    await v.send(init({ conversation: conversation('c1', [agentRun('r1', { answer: 'The design.', reasoning: 'first outline it', status: 'done' })]) }));
    const run = v.page.locator('cw-message[data-id=r1]');
    await eventually(async () => assert.equal(await run.locator('pre.reasoning-text').textContent(), 'first outline it'));
    assert.equal((await run.locator('.run-answer').textContent())?.trim(), 'The design.');
    assert.equal(await run.locator('details.reasoning').getAttribute('open'), null);
  });

  it('an answer without thinking shows no Thinking block', async () => {
    const v = view();
    await v.send(init({ conversation: conversation('c1', [user('u1', 'q'), assistant('a1', 'plain')]) }));
    await eventually(async () => assert.equal((await v.page.locator('cw-message[data-id=a1] .markdown').textContent())?.trim(), 'plain'));
    assert.equal(await v.page.locator('cw-message[data-id=a1] details.reasoning').count(), 0);
  });
});
