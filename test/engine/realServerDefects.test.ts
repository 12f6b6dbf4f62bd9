import { strict as assert } from 'node:assert';
import { setTimeout as delay } from 'node:timers/promises';
import { CustomAgentExecutor } from '../../src/core/engine/customAgentExecutor';
import type { ExecutorEvent } from '../../src/core/engine/executorEvents';
import { join } from 'node:path';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { estimateTokens } from '../../src/core/llm/tokenEstimate';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { inputBudgetFor } from '../../src/core/llm/serverContextSize';
import { OpenAiTestServer } from '../support/openaiServer';
import { compileYaml, runYaml, tempWorkspace, testRegistry, ToolProbe } from '../support/engineBuilders';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

/**
 * Defects that a run against llama.cpp's real server showed and scripted servers never had:
 * a stream whose first delta has no role, a for_each item failing mid-pool, LLM-tool requests that
 * were not streamed, and answers cut off at the output limit reported as plain success.
 */
describe('what a real llama-server showed', () => {
  let server: OpenAiTestServer;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
  });
  afterEach(() => server.close());

  async function runWithServer(yaml: string, inputs: Record<string, unknown>, timeoutMs = 5_000) {
    const registry = testRegistry();
    const models = new OpenAiModelProvider({ baseURL: server.url, model: 'main-model', timeoutMs, maxRetries: 0 }, { model: 'tool-model' });
    const events: ExecutorEvent[] = [];
    const result = await new CustomAgentExecutor({ registry, models }).run(compileYaml(yaml, registry), inputs, { onEvent: (e) => events.push(e) });
    return { ...result, events };
  }

  const SUMMARY_THEN_ANSWER = `title: s
input_variables:
  - name: text
tool_chain:
  - id: summary
    tool: summarize_llm_tool
    input: { content: "{text}" }
    output_variable: summary
llm_prompt_template:
  human: "Answer from {summary}"
`;

  it('records token usage when the first stream event carries no role', async () => {
    server.enqueue(
      { text: 'a short summary', omitRole: true, usage: { prompt_tokens: 40, completion_tokens: 4 } },
      { text: 'the answer', omitRole: true, usage: { prompt_tokens: 60, completion_tokens: 3 } },
    );
    const result = await runWithServer(SUMMARY_THEN_ANSWER, { text: 'some text' });
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, 'the answer');
    assert.deepEqual(result.log.steps[0].tokens, { input: 40, output: 4, total: 44 });
    assert.deepEqual(result.log.final?.tokens, { input: 60, output: 3, total: 63 });
    assert.deepEqual(result.log.total_tokens, { input: 100, output: 7, total: 107 });
  });

  it('streams LLM-tool requests, so the idle timeout applies per chunk and not to the whole generation', async () => {
    // 8 chunks 150 ms apart: 1.2 s in all, against a 400 ms deadline for silence.
    server.enqueue({ chunks: ['one ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ', 'eight'], chunkDelayMs: 150 }, { text: 'done' });
    const result = await runWithServer(SUMMARY_THEN_ANSWER, { text: 'long text' }, 400);
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(server.requests[0].body?.stream, true, 'the LLM-tool request is streamed');
    assert.equal(server.requests[0].body?.model, 'tool-model');
    assert.match(server.requests[1].promptText, /one two three four five six seven eight/);
  });

  it('says on the step and on the run when an answer was cut off at the output limit', async () => {
    server.enqueue({ text: 'a summary that', finishReason: 'length' }, { text: 'an answer that', finishReason: 'length' });
    const result = await runWithServer(SUMMARY_THEN_ANSWER, { text: 'x' });
    assert.equal(result.status, 'success');
    assert.match(result.log.steps[0].warnings?.join('\n') ?? '', /cut off.*length/);
    const runWarnings = result.log.warnings.join('\n');
    assert.match(runWarnings, /summarize_llm_tool's answer in step "summary" was cut off/);
    assert.match(runWarnings, /The answer was cut off/);
    const warningEvents = result.events.filter((e): e is Extract<ExecutorEvent, { type: 'warning' }> => e.type === 'warning');
    assert.ok(
      warningEvents.some((e) => e.stepId === 'summary'),
      'the step warning names its step',
    );
  });

  it('a failed for_each item keeps the items that succeeded, stops the pool and leaves nothing running', async () => {
    const probe = new ToolProbe();
    probe.failuresLeft.set('c', 99);
    const yaml = `title: map
tool_chain:
  - tool: echo
    input: [a, b, c, d, e, f, g, h]
    output_variable: keys
  - id: map
    tool: flaky
    for_each: "{keys}"
    as: k
    concurrency: 2
    input: { key: "{k}" }
    on_error: continue
    output_variable: results
  - id: after
    tool: echo
    input: "{results}"
    output_variable: final
`;
    const result = await runYaml(yaml, {}, { registry: testRegistry(probe) });
    const callsAtReturn = probe.calls.length;
    const map = result.log.steps[1];
    assert.equal(map.status, 'failed');
    assert.deepEqual(map.item_errors, [{ item: 2, error: 'flaky c failed' }]);
    assert.match(map.error!, /1 of 8 items failed \(item 2: flaky c failed\); \d not started/);
    const kept = result.output as string[];
    assert.ok(kept.length >= 2 && kept.length <= 3, `kept ${JSON.stringify(kept)}`);
    assert.deepEqual(kept.slice(0, 2), ['ok a', 'ok b'], 'the items that succeeded reach the next step, in order');
    assert.ok(probe.calls.filter((c) => c.tool === 'flaky').length <= 4, 'no item starts after the failure has been seen');
    assert.match(map.warnings?.join('\n') ?? '', /kept the \d that succeeded/);
    await delay(100);
    assert.equal(probe.calls.length, callsAtReturn, 'nothing ran after the run returned');
  });

  it('counts every for_each item’s tokens in the total, the ones still in flight when an item failed included', async () => {
    server.respondWith((request) =>
      /FAIL/.test(request.promptText) ? { status: 400 } : { text: 'ok', chunkDelayMs: 50, usage: { prompt_tokens: 10, completion_tokens: 1 } },
    );
    const yaml = `title: m
tool_chain:
  - tool: echo
    input: [one, FAIL, two, three, four, five]
    output_variable: items
  - id: sums
    tool: summarize_llm_tool
    for_each: "{items}"
    as: it
    concurrency: 2
    input: { content: "{it}" }
    on_error: continue
    output_variable: sums
`;
    const result = await runWithServer(yaml, {});
    const totalAtReturn = { ...result.log.total_tokens };
    const requestsAtReturn = server.requests.length;
    await delay(400); // time enough for orphaned items to start and finish, were there any
    assert.equal(server.requests.length, requestsAtReturn, 'no request after the run returned');
    const answered = server.requests.filter((r) => !/FAIL/.test(r.promptText)).length;
    assert.ok(answered < 5, 'the pool stopped');
    assert.deepEqual(totalAtReturn, { input: 10 * answered, output: answered, total: 11 * answered });
    assert.deepEqual(result.log.steps[1].tokens, totalAtReturn);
  });
});

describe('context overflow', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({ 'big.ts': `${'export const line = "some code that fills the window";\n'.repeat(2_000)}` });
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  async function explain(models = new OpenAiModelProvider({ baseURL: server.url, model: 'main-model', timeoutMs: 5_000, maxRetries: 3 })) {
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models });
    const prompt = engine.catalog.get('explain-file')!;
    return engine.executor.run(prompt, { file: 'big.ts' });
  }

  it('is a clear error naming the server’s context size and the prompt’s size, and is not retried', async () => {
    const message = 'request (31000 tokens) exceeds the available context size (4096 tokens), try increasing it';
    server.enqueue({ status: 400, body: { error: { code: 400, message, type: 'exceed_context_size_error', n_prompt_tokens: 31000, n_ctx: 4096 } } });
    const result = await explain();
    assert.equal(result.status, 'failed');
    assert.match(result.log.error!, /the prompt \(31,000 tokens\) does not fit the server's context size \(4,096 tokens\)/);
    assert.equal(server.requests.filter((r) => r.path === '/v1/chat/completions').length, 1, 'not retried');
  });

  it('fits the final prompt to the context size llama-server reports on /props', async () => {
    server.serveProps({ default_generation_settings: { n_ctx: 2048 } }).enqueue({ text: 'explained' });
    const result = await explain();
    assert.equal(result.status, 'success', result.log.error);
    assert.deepEqual(result.log.input_budget, { tokens: inputBudgetFor(24_000, 2048), server_context: 2048 });
    const sent = server.requests.find((r) => r.path === '/v1/chat/completions')!;
    assert.ok(estimateTokens(sent.promptText) <= inputBudgetFor(24_000, 2048) + 50, 'the prompt was cut to the budget');
    assert.match(result.log.warnings.join('\n'), /Cut big.ts .* to fit the [0-9,]+-token input budget/);
  });
});
