import { strict as assert } from 'node:assert';
import type { PromptRunMessage, AssistantMessage, ChatMessage, UserMessage } from '../../src/core/history';
import { fitHistory, historyBudget } from '../../src/core/session/historyWindow';
import { conversationTurns } from '../../src/core/session/chatHistoryMessages';
import { AgentModeFixture } from './agentModeBuilders';

const when = '2026-11-27T00:00:00.000Z';
const user = (id: string, text: string): UserMessage => ({ kind: 'user', id, createdAt: when, text });
const answer = (id: string, text: string): AssistantMessage => ({ kind: 'assistant', id, createdAt: when, text, status: 'done' });
const run = (id: string, text: string): PromptRunMessage => ({
  kind: 'prompt-run',
  id,
  createdAt: when,
  promptId: 'module-design-doc',
  promptTitle: 'Module design',
  inputs: { module_path: 'src' },
  steps: [],
  answer: text,
  status: 'done',
});
const exchanges = (count: number, size = 40): ChatMessage[] =>
  Array.from({ length: count }, (_, i) => [user(`u${i}`, `question ${i} ${'q'.repeat(size)}`), answer(`a${i}`, `answer ${i} ${'a'.repeat(size)}`)]).flat();

describe('history sent to the model is fitted in tokens, and what does not fit is condensed', () => {
  it('a short conversation is sent whole', () => {
    const history = exchanges(3);
    assert.deepEqual(fitHistory(history, 1_000), { kept: history, condensed: 0 });
  });

  it('forty-one short exchanges fit whole where the old 40-message cut dropped half of them', () => {
    const history = exchanges(41, 8);
    const { kept, condensed } = fitHistory(history, historyBudget(undefined));
    assert.equal(condensed, 0);
    assert.equal(kept.length, 82);
  });

  it('one huge /agent answer is what gets condensed, not the recent short questions; whole exchanges only, and the recap names the old question', () => {
    const history: ChatMessage[] = [run('r0', `DESIGN ${'x'.repeat(60_000)}`), ...exchanges(6)];
    const fitted = fitHistory(history, 2_000);
    assert.ok(fitted.condensed >= 1);
    assert.ok(!fitted.kept.some((m) => m.id === 'r0'));
    assert.equal(fitted.kept[0]!.kind, 'user', 'an exchange is kept whole, from its question');
    assert.match(fitted.recap!, /^- Q: \/agent Module design → A: DESIGN x+…$/m);
    const turns = conversationTurns(history, 2_000);
    assert.match(
      String(turns.messages[0]!.content),
      /^\(Earlier in this conversation, \d exchanges? condensed to fit the model's context:\n- Q: \/agent Module design/,
    );
    assert.ok(turns.messages.reduce((sum, m) => sum + String(m.content).length, 0) < 2_000 * 4, 'what is sent fits the budget');
  });

  it("exchanges are dropped four at a time, so the history's head stays the same for the next questions", () => {
    const history = exchanges(30);
    const heads = [0, 1, 2, 3, 4, 5, 6, 7].map(
      (more) => fitHistory([...history, ...exchanges(more).map((m) => ({ ...m, id: `${m.id}-new` }))], 400).kept[0]!.id,
    );
    // Each new exchange pushes about one old one out; dropped one at a time, the head would change with every question.
    assert.ok(new Set(heads).size <= 3, heads.join(', '));
  });

  it("the budget is a share of the server's context when it says, a fixed amount when it does not", () => {
    assert.equal(historyBudget(16_384), 6_553);
    assert.equal(historyBudget(undefined), 12_000);
  });
});

describe('an old conversation keeps working on a small context (agent mode and Chat mode, scripted server)', () => {
  let fx: AgentModeFixture;
  afterEach(async () => fx.close());

  it('agent mode: llama-server says 4,096 tokens; the long history is condensed, said on the turn, and the request fits', async () => {
    fx = await new AgentModeFixture({ 'src/app.ts': 'export const app = 1;\n' }).start();
    fx.server.serveProps({ default_generation_settings: { n_ctx: 4_096 } });
    for (let i = 0; i < 6; i++) {
      fx.server.enqueue({ text: `Long answer ${i}: ${'word '.repeat(1_200)}` });
      await fx.session.sendAgent(`Question ${i}?`);
    }
    fx.server.enqueue({ text: 'short' });
    await fx.session.sendAgent('Last question?');
    const last = fx.server.lastRequest();
    const sentChars = last.body!.messages!.reduce((sum, m) => sum + String(m.content ?? '').length, 0);
    assert.ok(sentChars < 4_096 * 4, `the request is ${sentChars} characters`);
    assert.match(
      last.promptText,
      /6 exchanges condensed to fit the model's context:\n(- Q: .*\n)*- Q: Question 5\? → A: Long answer 5: word word/,
      'the newest condensed exchanges are recapped',
    );
    assert.match(last.promptText, /Last question\?/);
    const done = fx.of('agentTurn/done').at(-1)!.turn;
    assert.ok(done.condensedTurns! >= 1);
    assert.ok(done.warnings!.some((w) => /earlier exchanges? condensed to fit the model's context/.test(w)));
  });

  it('chat mode: a server that overflows anyway (it never said its size) gets the question again with the history condensed, once', async () => {
    fx = await new AgentModeFixture({ 'src/app.ts': 'export const app = 1;\n' }).start();
    fx.server.enqueue({ text: 'first answer' });
    await fx.session.sendChat('First?');
    fx.server.enqueue(
      {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'request (9000 tokens) exceeds the available context size (4096 tokens)',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 9000,
            n_ctx: 4096,
          },
        },
      },
      { text: 'second answer' },
    );
    await fx.session.sendChat('Second?');
    const [overflowed, retried] = fx.server.requests.slice(-2);
    assert.match(overflowed!.promptText, /first answer/);
    assert.doesNotMatch(retried!.promptText, /first answer/);
    assert.match(retried!.promptText, /Second\?/);
    const done = fx.of('chat/done').at(-1)!.message;
    assert.deepEqual([done.status, done.text, done.condensedTurns], ['done', 'second answer', 1]);
  });
});
