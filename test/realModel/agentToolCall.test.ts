import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { createAgent } from '../../src/core/createAgent';
import type { AgentEvent } from '../../src/core/agent/agentEvents';
import { denyingGate } from '../../src/core/agent/approvalGate';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { pinnedModels, REPO_ROOT, startLocalModel, type LocalModelServer } from './localModelServer';
import { startRecordingProxy, wireCompletion, type RecordingProxy } from './recordingProxy';

/**
 * The product's default local model, through llama-server with --jinja (its chat template renders tools), on
 * questions about the example workspace. A recording proxy between CodeWiki and llama-server shows what went over
 * the wire: the tools were offered natively (the request's `tools`), and the model wrote its call as text (a JSON
 * block in `content`, no `tool_calls`), which CodeWiki recognised and ran. That form is what models.json records
 * for this model (`toolCallsObserved`); a llama.cpp or model change that makes the calls native fails the "no tool_calls"
 * assertion on purpose, so the manifest, docs/local-model.md and this test are updated together.
 * Beyond the form, what is asserted holds for any sane model: the call ran, and the answer names the right file.
 */
describe('real model: the default model calls tools (in the form the wire shows) and names the right file', function () {
  this.timeout(600_000);
  let server: LocalModelServer;
  let proxy: RecordingProxy | undefined;

  before(async () => {
    server = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--n-predict', '512'] });
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  after(async () => {
    await server?.stop();
  });

  /** A read-only agent on example-workspace, starting from its code index, on the server at temperature 0. */
  async function exampleAgent(options: { maxIterations: number; maxTokens?: number }) {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: options.maxTokens });
    const engine = await createCodewikiEngine({
      workspaceRoot: join(REPO_ROOT, 'example-workspace'),
      builtinPromptsDir: join(REPO_ROOT, 'action-prompts'),
      models,
    });
    return { engine, agent: createAgent(engine, { gate: denyingGate('read-only test'), caps: { maxIterations: options.maxIterations } }) };
  }

  it('answers a question any instruct model knows (the server computes correctly)', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 16 });
    const answer = await models.model('main').invoke('What is the capital of France? Answer in one word.');
    assert.match(String(answer.content), /paris/i);
  });

  it('answers a workspace question from a tool call it wrote as text, and names the right file', async () => {
    proxy = await startRecordingProxy(server.origin);
    const models = new OpenAiModelProvider({ baseURL: proxy.baseUrl, model: server.model, temperature: 0 });
    const engine = await createCodewikiEngine({
      workspaceRoot: join(REPO_ROOT, 'example-workspace'),
      builtinPromptsDir: join(REPO_ROOT, 'action-prompts'),
      models,
    });
    // Without the code index: its search before the first turn is a call CodeWiki makes, not the model.
    const agent = createAgent(engine, { gate: denyingGate('read-only test'), caps: { maxIterations: 6 }, useCodeIndex: false });
    const events: AgentEvent[] = [];
    const result = await agent.run({
      question: 'Where is the word frequency computed? Name the file.',
      conversationId: 'real-model',
      onEvent: (e) => events.push(e),
    });
    const turns = JSON.stringify(result.log.iterations.map((i) => i.text));

    const chats = proxy.chatExchanges();
    const offered = (chats[0]?.request?.tools ?? []).map((t) => t.function.name);
    assert.ok(offered.includes('read_file'), `the first request offered the tools natively (its \`tools\`): ${JSON.stringify(offered)}`);
    assert.equal(result.usedFallback, false, 'the server accepted the native tool definitions');

    const wire = chats.map(wireCompletion);
    assert.deepEqual(
      wire.flatMap((c) => c.nativeToolCalls),
      [],
      'no answer carried tool_calls: the model wrote its calls as text',
    );
    const calls = events.filter((e): e is Extract<AgentEvent, { type: 'tool-call-start' }> => e.type === 'tool-call-start');
    assert.ok(calls.length >= 1, `the model called a tool: ${turns}`);
    for (const call of calls) {
      assert.match(call.id, /^text_call_/, `CodeWiki ran ${call.tool} as a call read from the text, which is what the wire shows`);
      const written = wire[call.iteration - 1]?.content ?? '';
      assert.ok(written.includes(`"${call.tool}"`), `turn ${call.iteration}'s text on the wire names ${call.tool}: ${JSON.stringify(written)}`);
    }
    const ended = events.filter((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end');
    assert.ok(
      ended.some((c) => c.status === 'ok'),
      `a tool call succeeded: ${JSON.stringify(ended.map((c) => [c.tool, c.status, c.error]))}`,
    );

    // src/frequency.ts holds countWords and topWords; no other file of example-workspace computes frequencies.
    const named = [...result.answer.matchAll(/[\w./-]+\.ts\b/g)].map((m) => m[0]);
    assert.ok(named.length > 0, `the answer names a file: ${JSON.stringify(result.answer)}`);
    assert.match(named[0]!, /(^|\/)frequency\.ts$/, `the first file the answer names is the right one: ${JSON.stringify(result.answer)}`);
    assert.ok(result.tokens.total > 0, 'tokens were counted');
  });

  it('answers a where-is question with the right file when it starts from the code index', async () => {
    const { engine, agent } = await exampleAgent({ maxIterations: 4 });
    const events: AgentEvent[] = [];
    const result = await agent.run({
      question: 'Which file defines the list of stop words?',
      conversationId: 'real-model-index',
      onEvent: (e) => events.push(e),
    });
    await engine.codeIndex.dispose();
    const search = events.find((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end' && e.id === 'codewiki_index_search');
    assert.match(search?.output ?? '', /^1\. src\/stopWords\.ts\b/m, 'the index put the right file first in front of the model');
    const named = [...result.answer.matchAll(/[\w./-]+\.ts\b/g)].map((m) => m[0]);
    assert.ok(named.length > 0, `the answer names a file: ${JSON.stringify(result.answer)}`);
    assert.match(named[0]!, /(^|\/)stopWords\.ts$/, `the first file the answer names is the right one: ${JSON.stringify(result.answer)}`);
  });

  it('a second question reuses the prompt the first one computed: llama-server reports cached prompt tokens', async () => {
    const { engine, agent } = await exampleAgent({ maxIterations: 2, maxTokens: 64 });
    const firstCall = async (question: string) => {
      const events: AgentEvent[] = [];
      await agent.run({ question, conversationId: `real-model-cache-${question.length}`, onEvent: (e) => events.push(e) });
      return firstTurnEnd(events);
    };
    await firstCall('Where is the default reading speed defined?');
    const second = await firstCall('Which file splits text into sentences?');
    await engine.codeIndex.dispose();
    assert.ok(second.server, 'llama-server sent its timings');
    const prompt = second.server.cachedTokens + second.server.evaluatedTokens;
    assert.ok(second.server.cachedTokens >= prompt / 2, `most of the second prompt came from the cache: ${JSON.stringify(second.server)}`);
    assert.equal(second.tokens.cached, second.server.cachedTokens, 'the turn reports what the server said');
    assert.ok(second.firstTokenMs !== undefined && second.firstTokenMs > 0);
  });

  it('a question computed as a draft before Enter: its first call finds the whole prompt in the cache and answers right', async () => {
    const { engine, agent } = await exampleAgent({ maxIterations: 2, maxTokens: 64 });
    const question = 'Where is the word frequency computed? Name the file.';
    await agent.warmQuestion({ question, conversationId: 'real-model-draft' });
    const events: AgentEvent[] = [];
    const result = await agent.run({ question, conversationId: 'real-model-draft', onEvent: (e) => events.push(e) });
    await engine.codeIndex.dispose();
    const first = firstTurnEnd(events);
    assert.ok(first.server, 'llama-server sent its timings');
    // llama-server computes the prompt's last token again to start answering; nothing else was left to compute.
    assert.ok(first.server.evaluatedTokens <= 4, `the draft computed the prompt: ${JSON.stringify(first.server)}`);
    assert.ok(first.server.cachedTokens > 1_000, `the whole prompt came from the cache: ${JSON.stringify(first.server)}`);
    assert.match(result.answer, /frequency\.ts/, `the answer names the right file: ${JSON.stringify(result.answer)}`);
  });
});

/** The end of a run's first model call: its tokens and llama-server's timings. */
function firstTurnEnd(events: AgentEvent[]): Extract<AgentEvent, { type: 'turn-end' }> {
  return events.find((e): e is Extract<AgentEvent, { type: 'turn-end' }> => e.type === 'turn-end' && e.iteration === 1)!;
}
