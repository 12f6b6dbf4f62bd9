import { strict as assert } from 'node:assert';
import { agentTurn } from './support/agentBuilders';
import { conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** The project's instruction files are attachments the user can see and open (real Chromium, the built webview). */
describe('webview: project instructions shown with an agent turn', () => {
  const { view } = useWebview();

  it('streamed: the files appear above the answer; a click opens the file', async () => {
    const v = view();
    await v.send(init({ conversation: conversation('c1', []) }), { type: 'chat/mode', mode: 'agent' });
    await v.send(
      {
        type: 'agentTurn/started',
        conversationId: 'c1',
        user: user('u1', 'Hi'),
        turn: agentTurn('t1', { status: 'streaming', answer: '', toolCalls: [], createdAt: new Date().toISOString() }),
      },
      {
        type: 'agentTurn/instructions',
        turnId: 't1',
        instructions: [
          { path: 'AGENTS.md', tokens: 120 },
          { path: '.codewiki/instructions.md', tokens: 1_500, truncated: true },
        ],
      },
    );
    const row = v.page.locator('cw-message[data-id=t1] .instructions');
    await eventually(async () =>
      assert.equal((await row.textContent())?.replace(/\s+/g, ' ').trim(), 'Instructions: AGENTS.md · .codewiki/instructions.md (cut)'),
    );
    assert.match((await row.locator('a').nth(1).getAttribute('title'))!, /1,500 tokens, cut to fit/);
    await row.locator('a', { hasText: 'AGENTS.md' }).first().click();
    assert.deepEqual(await v.waitForPosted('file/open'), { type: 'file/open', path: 'AGENTS.md' });
  });

  it('a turn from history keeps showing them; a turn without them shows nothing', async () => {
    const v = view();
    await v.send(
      init({
        conversation: conversation('c1', [
          user('u1', 'q'),
          agentTurn('t1', { answer: 'a', toolCalls: [], instructions: [{ path: 'AGENTS.md', tokens: 9 }] }),
          user('u2', 'q2'),
          agentTurn('t2', { answer: 'b', toolCalls: [] }),
        ]),
      }),
    );
    await eventually(async () => assert.equal((await v.page.locator('cw-message[data-id=t1] .instructions a').textContent())?.trim(), 'AGENTS.md'));
    assert.equal(await v.page.locator('cw-message[data-id=t2] .instructions').count(), 0);
  });
});
