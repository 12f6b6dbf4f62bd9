import { strict as assert } from 'node:assert';
import type { RecordedRequest } from '../support/openaiServer';
import { AgentModeFixture } from './agentModeBuilders';

const FILES = { 'src/frequency.ts': '/** Counts words. */\nexport function countWords(words: string[]): number {\n  return words.length;\n}\n' };

function fixedPrefix(request: RecordedRequest): string {
  return JSON.stringify({ system: request.body!.messages![0], tools: request.body!.tools });
}

/** Agent mode's fixed prompt goes into a local llama-server's prompt cache before the first question, and survives a restart on disk. */
describe('agent mode: warming the local model prompt cache', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture(FILES, true).start();
  });
  afterEach(async () => fx.close());

  it('on llama-server: restores the saved prompt, sends exactly the prefix the next question starts with, stops at its first token, and saves it', async () => {
    fx.server.serveProps({ default_generation_settings: { n_ctx: 8_192 } }).serveSlots();
    fx.server.enqueue({ text: 'Hello! How can I help you today with this workspace?' });
    const first = await fx.session.warmPromptCache();
    assert.deepEqual(
      fx.server.slotActions.map((a) => [a.action, a.slot, a.afterRequests]),
      [
        ['restore', '0', 0],
        ['save', '0', 1],
      ],
      'restore before the one request, save after it',
    );
    assert.match(fx.server.slotActions[0]!.filename, /^codewiki-prefix-[0-9a-f]{16}\.bin$/);
    assert.equal(fx.server.slotActions[1]!.filename, fx.server.slotActions[0]!.filename);
    assert.deepEqual(first, { restoredTokens: undefined, warmMs: first!.warmMs, savedTokens: 1_234 }, 'nothing was saved before: nothing restored');
    assert.equal(fx.server.requests[0]!.body!.cache_prompt, true);
    assert.match(String(fx.server.requests[0]!.body!.messages![0]!.content), /countWords/, 'the repo map is part of the warmed prompt');

    fx.server.enqueue({ text: 'It is in src/frequency.ts.' });
    await fx.session.sendAgent('Where is countWords defined?');
    const question = fx.server.requests[1]!;
    assert.equal(fixedPrefix(question), fixedPrefix(fx.server.requests[0]!), 'the question starts with exactly what was warmed');
    assert.equal(fx.of('agentTurn/done')[0]!.turn.answer, 'It is in src/frequency.ts.');

    fx.server.enqueue({ text: 'Hello!' });
    const second = await fx.session.warmPromptCache();
    assert.equal(second!.restoredTokens, 1_234, 'a later warm-up (a restarted server) reads the saved prompt back');
  });

  it('on any other server nothing is sent: a warm-up there would be a paid request for nothing', async () => {
    const warmth = await fx.session.warmPromptCache();
    assert.equal(warmth, undefined);
    assert.equal(fx.server.requests.length, 0);
    assert.equal(fx.server.slotActions.length, 0);
  });

  it('in chat mode there is no agent prompt to warm', async () => {
    fx.server.serveProps({ default_generation_settings: { n_ctx: 8_192 } }).serveSlots();
    fx.settings = { mode: 'chat', toggles: { enabled: true, perTool: {}, defaultForNewTools: true }, maxIterations: 12, subagents: {}, notes: [] };
    assert.equal(await fx.session.warmPromptCache(), undefined);
    assert.equal(fx.server.requests.length, 0);
  });
});
