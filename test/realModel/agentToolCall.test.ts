import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { createAgent } from '../../src/core/agent';
import type { AgentEvent } from '../../src/core/agent/agentEvents';
import { denyingGate } from '../../src/core/agent/approvalGate';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { pinnedModels, REPO_ROOT, startLocalModel, type LocalModelServer } from './localModelServer';

/**
 * The product's default local model, through llama-server with --jinja (its chat template renders tools),
 * makes a native tool call on a question about the example workspace and answers from the result. What is
 * asserted holds for any sane tool-calling model: it calls a read tool that succeeds, and then answers.
 */
describe('real model: the default model calls tools natively', function () {
  this.timeout(600_000);
  let server: LocalModelServer;

  before(async () => {
    server = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--n-predict', '512'] });
  });
  after(async () => {
    await server?.stop();
  });

  it('answers a question any instruct model knows (the server computes correctly)', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 16 });
    const answer = await models.model('main').invoke('What is the capital of France? Answer in one word.');
    assert.match(String(answer.content), /paris/i);
  });

  it('answers a workspace question from a real tool call', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0 });
    const engine = await createCodewikiEngine({ workspaceRoot: join(REPO_ROOT, 'example-workspace'), builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    // Without the code index: its search before the first turn is a call CodeWiki makes, not the model.
    const agent = createAgent(engine, { gate: denyingGate('read-only test'), caps: { maxIterations: 6 }, useCodeIndex: false });
    const events: AgentEvent[] = [];
    const result = await agent.run({ question: 'Where is the word frequency computed? Name the file.', conversationId: 'real-model', onEvent: (e) => events.push(e) });

    assert.equal(result.usedFallback, false, 'the server accepted native tool definitions');
    const calls = events.filter((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end');
    assert.ok(calls.length >= 1, `the model called a tool: ${JSON.stringify(result.log.iterations.map((i) => i.text))}`);
    assert.ok(calls.some((c) => c.status === 'ok'), `a tool call succeeded: ${JSON.stringify(calls.map((c) => [c.tool, c.status, c.error]))}`);
    assert.ok(result.answer.trim().length > 0, 'it answered');
    assert.ok(result.tokens.total > 0, 'tokens were counted');
  });

  it('answers a where-is question with the right file when it starts from the code index', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0 });
    const engine = await createCodewikiEngine({ workspaceRoot: join(REPO_ROOT, 'example-workspace'), builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    const agent = createAgent(engine, { gate: denyingGate('read-only test'), caps: { maxIterations: 4 } });
    const events: AgentEvent[] = [];
    const result = await agent.run({ question: 'Which file defines the list of stop words?', conversationId: 'real-model-index', onEvent: (e) => events.push(e) });
    await engine.codeIndex.dispose();
    const search = events.find((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end' && e.id === 'codewiki_index_search');
    assert.match(search?.output ?? '', /^1\. src\/stopWords\.ts\b/m, 'the index put the right file first in front of the model');
    const named = [...result.answer.matchAll(/[\w./-]+\.ts\b/g)].map((m) => m[0]);
    assert.ok(named.length > 0, `the answer names a file: ${JSON.stringify(result.answer)}`);
    assert.match(named[0]!, /(^|\/)stopWords\.ts$/, `the first file the answer names is the right one: ${JSON.stringify(result.answer)}`);
  });

  it('a second question reuses the prompt the first one computed: llama-server reports cached prompt tokens', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 64 });
    const engine = await createCodewikiEngine({ workspaceRoot: join(REPO_ROOT, 'example-workspace'), builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    const agent = createAgent(engine, { gate: denyingGate('read-only test'), caps: { maxIterations: 2 } });
    const firstCall = async (question: string) => {
      const events: AgentEvent[] = [];
      await agent.run({ question, conversationId: `real-model-cache-${question.length}`, onEvent: (e) => events.push(e) });
      return events.find((e): e is Extract<AgentEvent, { type: 'turn-end' }> => e.type === 'turn-end' && e.iteration === 1)!;
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
});
