import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { RunLog } from '../../src/core/engine/runLog';
import type { AgentTurnMessage } from '../../src/core/history';
import { runLogMarkdown } from '../../src/extension/runLogMarkdown';
import { AgentModeFixture } from './agentModeBuilders';

/** What a turn cost reaches the chat and history: tokens with the cached share, the first token, and the context's fill against the server's window. */
describe('agent mode: what a turn cost, from the server to history', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture({ 'src/app.ts': 'export const app = 1;\n' }).start();
  });
  afterEach(async () => fx.close());

  it('records cached prompt tokens from llama-server timings, the first token, and the last call against n_ctx; all of it is saved', async () => {
    fx.server.serveProps({ default_generation_settings: { n_ctx: 8_192 } });
    fx.server.enqueue(
      {
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/app.ts' } }],
        usage: { prompt_tokens: 1_000, completion_tokens: 10 },
        timings: { cache_n: 0, prompt_n: 1_000, prompt_ms: 30_000, predicted_n: 10, predicted_ms: 1_000 },
      },
      {
        text: 'It is 1.',
        usage: { prompt_tokens: 1_200, completion_tokens: 4 },
        timings: { cache_n: 1_010, prompt_n: 190, prompt_ms: 6_000, predicted_n: 4, predicted_ms: 400 },
      },
    );
    await fx.session.sendAgent('What is app?');

    const usage = fx.of('agentTurn/usage');
    assert.deepEqual(
      usage.map((m) => [m.tokens.cached, m.contextTokens]),
      [
        [0, 1_000],
        [1_010, 1_200],
      ],
    );
    const done = fx.of('agentTurn/done')[0]!.turn;
    assert.deepEqual(done.tokens, { input: 2_200, output: 14, total: 2_214, cached: 1_010 });
    assert.deepEqual([done.contextTokens, done.contextWindow], [1_200, 8_192]);
    assert.ok(done.firstTokenMs !== undefined && done.firstTokenMs <= done.durationMs!, 'the first token came within the turn');
    assert.equal(fx.server.requests[0]!.body!.cache_prompt, true, 'llama-server was asked to keep its cache');

    const saved = (await fx.reopen())[1] as AgentTurnMessage;
    assert.deepEqual([saved.tokens, saved.contextTokens, saved.contextWindow, saved.firstTokenMs], [done.tokens, 1_200, 8_192, done.firstTokenMs]);
  });

  it('a server that reports no timings and no window: tokens as reported, the fill without a window, no cached count', async () => {
    fx.server.enqueue({ text: 'It is 1.', usage: { prompt_tokens: 300, completion_tokens: 4 } });
    await fx.session.sendAgent('What is app?');
    const done = fx.of('agentTurn/done')[0]!.turn;
    assert.deepEqual(done.tokens, { input: 300, output: 4, total: 304 });
    assert.deepEqual([done.contextTokens, done.contextWindow], [300, undefined]);
    assert.equal(fx.server.requests[0]!.body!.cache_prompt, undefined);
  });

  it('an /agent run keeps its final prompt against the budget and the server window; the run log page shows the same', async () => {
    fx.server.serveProps({ default_generation_settings: { n_ctx: 4_096 } });
    fx.server.enqueue({ text: 'It explains.', usage: { prompt_tokens: 700, completion_tokens: 3 } });
    await fx.session.runPrompt('explain-file', { file: 'src/app.ts' });
    const run = fx.of('promptRun/done')[0]!.run;
    assert.equal(run.context?.promptTokens, 700);
    assert.equal(run.context?.serverContext, 4_096);
    assert.ok(run.context!.budgetTokens > 0 && run.context!.budgetTokens < 4_096, `budget ${run.context!.budgetTokens} fits the window`);
    const log = JSON.parse(readFileSync(run.runLogPath!, 'utf8')) as RunLog;
    assert.match(
      runLogMarkdown(log, 'run.json'),
      new RegExp(`\\| Context \\| final prompt 700 of ${run.context!.budgetTokens.toLocaleString('en-US')} tokens budgeted \\(server window 4,096\\) \\|`),
    );
  });
});
