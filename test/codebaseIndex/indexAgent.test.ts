import { strict as assert } from 'node:assert';
import { AgentFixture, toolText } from '../agent/agentHarness';
import { HISTORY_WORKSPACE } from './historyWorkspace';

const FILES = HISTORY_WORKSPACE;

const INDEX = { useCodeIndex: true };

const lastUser = (fx: AgentFixture, request: number) => {
  const messages = fx.server.requests[request]!.body!.messages!;
  return String([...messages].reverse().find((m) => m.role === 'user')!.content);
};

/** Scripted OpenAI server, real ChatOpenAI client: what the index adds to the agent's requests, and its tools' round trips. */
describe('codebase index in the agent (scripted server)', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('the first request of a where-is question carries the index search for it, as a search_code call already answered; the system prompt carries the repo map', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'In src/history/conversationLock.ts:2, ConversationLock.' }]).start();
    const question = 'Which file implements the lock that lets several windows share history?';
    const result = await fx.ask(question, INDEX);
    assert.equal(result.answer, 'In src/history/conversationLock.ts:2, ConversationLock.');
    const messages = fx.server.requests[0]!.body!.messages!;
    assert.deepEqual(
      messages.slice(1).map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.equal(messages[1]!.content, question, "the question is the user's words alone");
    assert.deepEqual(
      messages[2]!.tool_calls!.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
      [['search_code', { query: question }]],
    );
    const candidates = String(messages[3]!.content);
    assert.match(candidates, /^Best matches in the code index for the question, best first/);
    assert.equal(
      candidates.split('\n')[1],
      '1. src/history/conversationLock.ts — Lets several windows share one history: each save waits its turn.',
      'the best match first, with what it is about',
    );
    assert.match(
      candidates,
      /\nIf one of these answers the question, name that one file and line \(path:line\) and say in a sentence what is there; if none does, call a tool\.$/,
    );
    const shown = fx.eventsOf('tool-call-end').find((e) => e.tool === 'search_code')!;
    assert.equal(shown.output, candidates, 'the user sees exactly what the model was given');
    assert.match(candidates, /src\/history\/conversationLock\.ts:2: export class ConversationLock/);
    const system = String(fx.server.requests[0]!.body!.messages![0]!.content);
    assert.match(system, /Map of the workspace .*\nsrc\/history\/conversationLock\.ts:\n\s+2│ export class ConversationLock/);
    assert.doesNotMatch(system, /Layout of the workspace/);
    const context = fx.eventsOf('index-context')[0]!;
    assert.equal(context.files[0], 'src/history/conversationLock.ts');
    assert.equal(context.partial, false);
  });

  it('a definition the question names exactly is reported before the model answers (the card)', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'It is in retryPolicy.ts.' }]).start();
    await fx.ask('Where is retryDelay defined?', INDEX);
    const kinds = fx.events.map((e) => e.type);
    assert.ok(kinds.indexOf('definitions') < kinds.indexOf('turn-start'), `definitions come before the first model call: ${kinds.join(', ')}`);
    assert.deepEqual(fx.eventsOf('definitions')[0]!.definitions, [
      {
        name: 'retryDelay',
        kind: 'function',
        path: 'src/llm/retryPolicy.ts',
        line: 2,
        signature: 'export function retryDelay(attempt: number): number',
        doc: 'Retries 429 and 5xx answers with backoff.',
        container: undefined,
      },
    ]);
  });

  it('two different questions send a byte-identical system prompt and tools: the question-specific part comes after them', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'one' }, { text: 'two' }]).start();
    await fx.ask('Where is retryDelay defined?', INDEX);
    await fx.ask('Which file implements the lock?', INDEX);
    const [first, second] = fx.server.requests.map((r) => r.body!);
    assert.equal(JSON.stringify(first!.messages![0]), JSON.stringify(second!.messages![0]));
    assert.equal(JSON.stringify(first!.tools), JSON.stringify(second!.tools));
    assert.notEqual(lastUser(fx, 0), lastUser(fx, 1));
  });

  it('find_symbol and search_code round trips: the model gets path:line results it can act on', async () => {
    fx = await new AgentFixture(FILES, [
      {
        toolCalls: [
          { id: 's1', name: 'find_symbol', arguments: { name: 'ConversationLok' } },
          { id: 's2', name: 'search_code', arguments: { query: 'retry backoff on rate limits' } },
        ],
      },
      { text: 'Done.' },
    ]).start();
    await fx.ask('Look around.', { useCodeIndex: false });
    const results = Object.fromEntries(fx.toolMessages(1).map((m) => [m.tool_call_id, toolText(m.content)]));
    assert.match(
      results.s1!,
      /^No definition is named exactly "ConversationLok"; the closest:\nsrc\/history\/conversationLock\.ts:2 {2}class ConversationLock: export class ConversationLock — Lets several windows share one history/,
    );
    assert.match(results.s2!, /^src\/llm\/retryPolicy\.ts\n {2}2: export function retryDelay\(attempt: number\): number/);
  });

  it('without the index (useCodeIndex: false) the question goes alone and the system prompt shows the layout', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'ok' }]).start();
    await fx.ask('Where is retryDelay defined?', { useCodeIndex: false });
    assert.equal(lastUser(fx, 0), 'Where is retryDelay defined?');
    assert.match(String(fx.server.requests[0]!.body!.messages![0]!.content), /Layout of the workspace/);
    assert.deepEqual(fx.eventsOf('definitions'), []);
    assert.deepEqual(
      fx.server.requests[0]!.body!.messages!.map((m) => m.role),
      ['system', 'user'],
    );
  });

  it('with search_code switched off, the matches go before the question instead', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'ok' }]).start();
    await fx.ask('Where is retryDelay defined?', { ...INDEX, toggles: { enabled: true, perTool: { search_code: false }, defaultForNewTools: true } });
    const question = lastUser(fx, 0);
    assert.match(question, /^CodeWiki's code index matched these to the question below/);
    assert.match(question, /\n\nWhere is retryDelay defined\?$/);
    assert.deepEqual(
      fx.server.requests[0]!.body!.messages!.map((m) => m.role),
      ['system', 'user'],
    );
  });
});
