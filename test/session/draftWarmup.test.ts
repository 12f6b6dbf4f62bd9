import { strict as assert } from 'node:assert';
import { isLoopback, type PromptCacheSlots } from '../../src/core/llm/promptCacheSlots';
import type { RecordedRequest } from '../support/openaiServer';
import { AgentModeFixture } from './agentModeBuilders';

const FILES = { 'src/frequency.ts': '/** Counts words. */\nexport function countWords(words: string[]): number {\n  return words.length;\n}\n' };
const QUESTION = 'Where is countWords defined?';

/** Everything the server computes before its first token: the messages (system, history, question, the index's matches) and the tools. */
function wholePrompt(request: RecordedRequest): string {
  return JSON.stringify({ messages: request.body!.messages, tools: request.body!.tools });
}

/**
 * A question the user pauses over is computed on the local llama-server before Enter (codewiki.agent.prefillWhileTyping),
 * as exactly the request the question will send, so the answer starts from a prompt the server already holds.
 */
describe('agent mode: computing a draft question ahead on the local model', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture(FILES, true).start();
  });
  afterEach(async () => fx.close());

  const asLlamaServer = () => fx.server.serveProps({ default_generation_settings: { n_ctx: 8_192 } }).serveSlots();

  it('sends the question’s own first request, byte for byte (the index’s matches included), stops at its first token, and shows and saves nothing', async () => {
    asLlamaServer();
    fx.server.enqueue({ text: 'It is in src/frequency.ts, where countWords is defined.', chunkDelayMs: 50 });
    assert.equal(await fx.session.warmDraft(QUESTION), true);
    const draft = fx.server.requests[0]!;
    assert.equal(fx.server.requests.length, 1);
    assert.equal(draft.body!.cache_prompt, true);
    assert.match(draft.promptText, /src\/frequency\.ts:2/, 'the index’s matches are part of the computed prompt');
    await fx.server.waitForClose(0);
    assert.equal(draft.finishedAt, undefined, 'the client closed the stream after the first token instead of reading the answer');
    assert.equal(fx.session.current(), undefined, 'no conversation was started');
    assert.deepEqual(fx.history.listConversations(), [], 'nothing is in history');
    assert.deepEqual(
      fx.posted.filter((m) => m.type.startsWith('agentTurn/')),
      [],
      'nothing reached the chat',
    );

    fx.server.enqueue({ text: 'It is in src/frequency.ts:2.' });
    await fx.session.sendAgent(QUESTION);
    const question = fx.server.requests[1]!;
    assert.equal(wholePrompt(question), wholePrompt(draft), 'the question sent what the draft computed');
    assert.equal(fx.of('agentTurn/done')[0]!.turn.answer, 'It is in src/frequency.ts:2.');
  });

  it('in a conversation, the draft carries the history the question will carry; the last draft computed is the one sent', async () => {
    asLlamaServer();
    fx.server.enqueue({ text: 'It counts words.' });
    await fx.session.sendAgent('What does this workspace do?');
    fx.server.enqueue({ text: 'It is' });
    assert.equal(await fx.session.warmDraft(QUESTION), true);
    fx.server.enqueue({ text: 'It is' });
    assert.equal(await fx.session.warmDraft(`${QUESTION} In which file?`), true);
    assert.equal(fx.server.requests.length, 3);

    fx.server.enqueue({ text: 'It is in src/frequency.ts:2.' });
    await fx.session.sendAgent(`${QUESTION} In which file?`);
    assert.equal(wholePrompt(fx.server.requests[3]!), wholePrompt(fx.server.requests[2]!));
    assert.match(fx.server.requests[3]!.promptText, /It counts words\./, 'the earlier exchange is in both');
  });

  it('an @mention is forced in the draft as in the question’s first turn', async () => {
    asLlamaServer();
    fx.server.enqueue({ text: 'It is' });
    assert.equal(await fx.session.warmDraft('Where is countWords defined? @find_symbol', { mentions: ['find_symbol'] }), true);
    assert.deepEqual(fx.server.requests[0]!.body!.tool_choice, { type: 'function', function: { name: 'find_symbol' } });
    fx.server.enqueue({ text: 'It is in src/frequency.ts:2.' });
    await fx.session.sendAgent('Where is countWords defined? @find_symbol', { mentions: ['find_symbol'] });
    assert.deepEqual(fx.server.requests[1]!.body!.tool_choice, fx.server.requests[0]!.body!.tool_choice);
    assert.equal(wholePrompt(fx.server.requests[1]!), wholePrompt(fx.server.requests[0]!));
  });

  it('a draft still on its way when a question is sent gives up, and so does one asked for during the fixed prompt’s warm-up', async () => {
    asLlamaServer();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let engineCalls = 0;
    const session = fx.newSession({
      engine: async () => {
        if (engineCalls++ === 0) await gate; // the draft's engine comes late (a rebuild, a slow attachment)
        return { engine: fx.engine };
      },
    });
    const drafting = session.warmDraft(QUESTION);
    fx.server.enqueue({ text: 'It is in src/frequency.ts:2.' });
    await session.sendAgent(QUESTION);
    release();
    assert.equal(await drafting, false, 'the question was sent while it got ready');
    assert.equal(fx.server.requests.length, 1, 'only the question reached the server');

    fx.server.enqueue({ text: 'Hello!', delayMs: 300 });
    const prefix = fx.session.warmPromptCache();
    await fx.server.waitForRequests(2);
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'the slot is being restored, computed and saved: a draft would be saved with it');
    await prefix;
    assert.deepEqual(
      fx.server.slotActions.map((a) => a.action),
      ['restore', 'save'],
    );
    assert.equal(fx.server.requests.length, 2);
    fx.server.enqueue({ text: 'It is' });
    assert.equal(await fx.session.warmDraft(QUESTION), true, 'after it, drafts are computed again');
  });

  it('another question sent while a draft computes stops the draft; its own question lets it finish, to find its prompt computed', async () => {
    asLlamaServer();
    fx.server.enqueue({ text: 'never read', stall: 'before-headers' });
    const stopped = fx.session.warmDraft(QUESTION);
    await fx.server.waitForRequests(1);
    fx.server.enqueue({ text: 'It counts words.' });
    await fx.session.sendAgent('What does this workspace do?');
    assert.equal(await stopped, false, 'stopped, not computed');
    assert.notEqual(fx.server.requests[0]!.closedAt, undefined, 'its connection was closed');
    assert.equal(fx.of('agentTurn/done')[0]!.turn.answer, 'It counts words.');

    await fx.session.newConversation();
    fx.server.enqueue({ text: 'It is', delayMs: 2_000 }); // still computing when its question comes
    const kept = fx.session.warmDraft(QUESTION);
    await fx.server.waitForRequests(3);
    fx.server.enqueue({ text: 'It is in src/frequency.ts:2.' });
    await fx.session.sendAgent(QUESTION);
    const [draft, question] = [fx.server.requests[2]!, fx.server.requests[3]!];
    assert.ok(draft.closedAt === undefined || draft.closedAt > question.arrivedAt, 'the draft was still open when its question came');
    assert.equal(await kept, true, 'and ran to its first token');
    assert.equal(wholePrompt(question), wholePrompt(draft));
  });

  it('sends nothing to a server that is not llama-server or not on this machine, in chat mode, with the setting off, or while an answer runs', async () => {
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'not llama-server: a draft would be a paid request for nothing');
    asLlamaServer();
    const provider = fx.engine.models as { promptCacheSlots(role: 'main'): PromptCacheSlots };
    const onThisMachine = provider.promptCacheSlots.bind(provider);
    provider.promptCacheSlots = (role) => ({ ...onThisMachine(role), onThisMachine: false });
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'a llama-server elsewhere: the user has not sent the draft');
    provider.promptCacheSlots = onThisMachine;
    const agentSettings = {
      mode: 'agent' as const,
      toggles: { enabled: true, perTool: {}, defaultForNewTools: true },
      maxIterations: 12,
      subagents: {},
      notes: [],
    };
    fx.settings = { ...agentSettings, mode: 'chat' };
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'chat mode');
    fx.settings = { ...agentSettings, prefillDrafts: false };
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'codewiki.agent.prefillWhileTyping: false');
    fx.settings = agentSettings;
    fx.server.enqueue({ text: 'slow', stall: 'before-headers' });
    const answering = fx.session.sendAgent('What does this workspace do?');
    await fx.server.waitForRequests(1);
    assert.equal(await fx.session.warmDraft(QUESTION), false, 'an answer is running');
    fx.session.stop();
    await answering;
    assert.equal(fx.server.requests.length, 1, 'only the question reached the server');
  });

  it('only a server on this machine is sent drafts: the user has not sent them', () => {
    for (const local of ['http://127.0.0.1:8080/v1', 'http://localhost:1234/v1', 'http://LOCALHOST:1234/v1', 'http://[::1]:8080/v1', 'http://127.3.2.1/v1'])
      assert.equal(isLoopback(local), true, local);
    for (const remote of [
      'https://api.openai.com/v1',
      'http://10.0.0.2:8080/v1',
      'http://127.0.0.1.example.com/v1',
      'http://localhost.example.com/v1',
      'http://app.localhost/v1',
      'not a url',
    ])
      assert.equal(isLoopback(remote), false, remote);
  });
});
