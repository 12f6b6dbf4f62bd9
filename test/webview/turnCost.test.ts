import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { agentTurn } from './support/agentBuilders';
import { agentRun, assistant, conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** What a turn cost, as the user sees it (real Chromium, the built webview): tokens with the cached share, the first token, how full the context is. */
describe('webview: what an agent turn cost', function () {
  const { view } = useWebview();
  const turn = () => view().page.locator('cw-message[data-id=t1]');
  const meter = () => turn().locator('.context-meter');

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'hi')]) }), { type: 'chat/mode', mode: 'agent' });
  });

  it('the context meter follows each model call while the turn runs; the summary then shows prompt, cached and generated tokens and the first token', async () => {
    const v = view();
    const started: HostToWebview = {
      type: 'agentTurn/started',
      conversationId: 'c1',
      user: user('u2', 'Where is X?'),
      turn: agentTurn('t1', { status: 'streaming', answer: '', toolCalls: [], createdAt: new Date().toISOString() }),
    };
    await v.send(started, {
      type: 'agentTurn/usage',
      turnId: 't1',
      iterations: 1,
      tokens: { input: 1_500, output: 20, total: 1_520, cached: 1_400 },
      contextTokens: 1_500,
    });
    await eventually(async () => assert.equal((await meter().textContent())?.replace(/\s+/g, ' ').trim(), 'Context: 1,500 tokens'));
    await v.send({
      type: 'agentTurn/usage',
      turnId: 't1',
      iterations: 2,
      tokens: { input: 3_300, output: 60, total: 3_360, cached: 2_900 },
      contextTokens: 1_800,
    });
    await eventually(async () => assert.equal((await meter().textContent())?.replace(/\s+/g, ' ').trim(), 'Context: 1,800 tokens'));

    const done = agentTurn('t1', {
      answer: 'In src/x.ts.',
      toolCalls: [],
      durationMs: 4_200,
      firstTokenMs: 1_900,
      tokens: { input: 3_300, output: 60, total: 3_360, cached: 2_900 },
      contextTokens: 1_800,
      contextWindow: 16_384,
    });
    await v.send({ type: 'agentTurn/done', turn: done });
    await eventually(async () =>
      assert.equal((await turn().locator('.summary').textContent())?.trim(), 'No tools used · 4.2 s · 3,360 tokens (2,900 cached) · first token 1.9 s'),
    );
    assert.equal((await meter().textContent())?.replace(/\s+/g, ' ').trim(), 'Context: 1,800 of 16,384 tokens (11%)');
    assert.equal(await meter().getAttribute('aria-valuenow'), '11');
    assert.equal(
      await meter()
        .locator('progress')
        .evaluate((bar) => (bar as unknown as { value: number }).value),
      11,
    );
  });

  it('a turn saved before these figures were kept shows neither the meter nor a cached count', async () => {
    await view().send({
      type: 'conversation/load',
      conversation: conversation('c1', [
        user('u1', 'q'),
        agentTurn('t1', { answer: 'old', toolCalls: [], durationMs: 1_000, tokens: { input: 10, output: 2, total: 12 } }),
      ]),
    });
    await eventually(async () => assert.equal((await turn().locator('.summary').textContent())?.trim(), 'No tools used · 1.0 s · 12 tokens'));
    assert.equal(await meter().count(), 0);
  });

  it('a chat answer whose earlier exchanges were condensed to fit the context says how many', async () => {
    await view().send({
      type: 'conversation/load',
      conversation: conversation('c1', [user('u1', 'q'), assistant('a1', 'fine', { condensedTurns: 5 }), user('u2', 'q2'), assistant('a2', 'also fine')]),
    });
    await eventually(async () =>
      assert.equal(
        (await view().page.locator('cw-message[data-id=a1] .condensed').textContent())?.trim(),
        "5 earlier exchanges condensed to fit the model's context",
      ),
    );
    assert.equal(await view().page.locator('cw-message[data-id=a2] .condensed').count(), 0);
  });

  it('an /agent run shows its final prompt against the budget and the server window', async () => {
    await view().send({
      type: 'conversation/load',
      conversation: conversation('c1', [
        agentRun('r1', { answer: 'Doc.', status: 'done', context: { promptTokens: 3_200, budgetTokens: 6_553, serverContext: 16_384 } }),
      ]),
    });
    await eventually(async () =>
      assert.match(
        (await view().page.locator('cw-message[data-id=r1] .run-summary').textContent()) ?? '',
        /Context: 3,200 of 6,553 tokens budgeted \(server window 16,384\)/,
      ),
    );
  });
});
