import { strict as assert } from 'node:assert';
import type { AssistantMessage, PromptRunMessage } from '../../src/core/history';
import { REASONING_MAX_CHARS } from '../../src/core/session/reasoningCap';
import { AgentModeFixture } from './agentModeBuilders';

/** Chat mode and /agent answers split a reasoning model's thinking from its answer: on the wire to the view, on disk, and in the next request. */
describe('ConversationSession: thinking is kept apart from the answer', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture({ 'src/app.ts': 'export function app() { return "APP_BODY"; }\n' }).start();
  });
  afterEach(async () => fx.close());
  const text = (type: 'chat/chunk' | 'chat/reasoning' | 'promptRun/chunk' | 'promptRun/reasoning') => fx.of(type).map((m) => m.text);

  it('chat: a <think> block streams as chat/reasoning, is saved apart, and is not sent back as history', async () => {
    fx.server.enqueue({ chunks: ['<think>The user greets; src/secret', '-plan.ts is irrelevant.</th', 'ink>', 'Hello', ' there'] });
    fx.server.enqueue({ text: 'Second.' });
    const s = fx.session;
    await s.sendChat('Hi');
    assert.deepEqual(text('chat/chunk'), ['Hello', ' there']);
    assert.equal(text('chat/reasoning').join(''), 'The user greets; src/secret-plan.ts is irrelevant.');
    const done = fx.of('chat/done')[0]!.message;
    assert.equal(done.text, 'Hello there');

    await s.sendChat('And?');
    const replayed = fx.server.lastRequest().body!.messages!.map((m) => String(m.content));
    assert.ok(replayed.includes('Hello there'), replayed.join(' | '));
    assert.ok(!replayed.some((c) => c.includes('secret-plan')), 'thinking is not history the model pays for again');

    const restored = (await fx.reopen())[1] as AssistantMessage;
    assert.equal(restored.text, 'Hello there');
    assert.equal(restored.reasoning, 'The user greets; src/secret-plan.ts is irrelevant.');
  });

  it('chat: reasoning_content is thinking too, and history keeps at most the cap of it', async () => {
    const long = 'x'.repeat(REASONING_MAX_CHARS);
    fx.server.enqueue({ reasoningChunks: ['Thinking… ', long], chunks: ['Answer.'] });
    await fx.session.sendChat('Q');
    const restored = (await fx.reopen())[1] as AssistantMessage;
    assert.equal(restored.text, 'Answer.');
    assert.equal(restored.reasoning!.length, REASONING_MAX_CHARS);
    assert.ok(restored.reasoning!.startsWith('Thinking… x'));
    assert.equal(text('chat/reasoning').join('').length, REASONING_MAX_CHARS, 'the view shows what history keeps');
  });

  it("/agent: the final answer's thinking streams as promptRun/reasoning and is saved on the run, not in its answer", async () => {
    fx.server.enqueue({ chunks: ['<think>plan the explanation</think>', 'It ', 'explains.'] });
    await fx.session.runPrompt('explain-file', { file: 'src/app.ts', audience: 'reviewer' });
    assert.deepEqual(text('promptRun/chunk'), ['It ', 'explains.']);
    assert.equal(text('promptRun/reasoning').join(''), 'plan the explanation');
    const run = (await fx.reopen())[0] as PromptRunMessage;
    assert.equal(run.answer, 'It explains.');
    assert.equal(run.reasoning, 'plan the explanation');
  });
});
