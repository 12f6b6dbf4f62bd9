import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { CustomAgentExecutor } from '../../src/core/engine/customAgentExecutor';
import type { ExecutorEvent } from '../../src/core/engine/executorEvents';
import type { ModelProvider } from '../../src/core/llm/modelProvider';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { estimateTokens } from '../../src/core/llm/tokenEstimate';
import { OpenAiTestServer } from '../support/openaiServer';
import { compileYaml, modelsFor, tempWorkspace } from '../support/engineBuilders';

const SEED_001 = readFileSync(join(__dirname, '..', 'fixtures', 'seed-001-module-design.yaml'), 'utf8');
const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

const FILES = {
  'src/mod/core.ts': '/** The core of the module. */\nexport function core() {\n  return "CORE_BODY";\n}\n',
  'src/mod/util.ts': 'export const util = "UTIL_BODY";\n',
  'src/mod/other.ts': 'export const other = "OTHER_BODY";\n',
};

describe('LLM steps through the real ChatOpenAI client and a scripted OpenAI server', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let engine: CodewikiEngine;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace(FILES);
    engine = await createCodewikiEngine({
      workspaceRoot: ws.root,
      builtinPromptsDir: BUILTIN,
      models: modelsFor(server.url),
      executor: { maxInputTokens: 50_000 },
    });
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  async function run(
    yaml: string,
    inputs: Record<string, unknown>,
    options: { dryRun?: boolean; signal?: AbortSignal; maxInputTokens?: number; models?: ModelProvider; onEvent?: (event: ExecutorEvent) => void } = {},
  ) {
    const prompt = compileYaml(yaml, engine.registry, 'seed', 'seed.yaml');
    const events: ExecutorEvent[] = [];
    const executor =
      options.maxInputTokens || options.models
        ? new CustomAgentExecutor({
            registry: engine.registry,
            models: options.models ?? engine.models,
            options: { maxInputTokens: options.maxInputTokens ?? 50_000 },
          })
        : engine.executor;
    const result = await executor.run(prompt, inputs, {
      onEvent: (e) => (events.push(e), options.onEvent?.(e)),
      dryRun: options.dryRun,
      signal: options.signal,
    });
    return { ...result, events };
  }

  it('runs seed 001: the tool model selects files, invented paths are dropped, the main model streams the answer', async () => {
    server.respondWith((request) =>
      /选出与任务最相关的核心文件|select the files/.test(request.promptText)
        ? { text: '```\nsrc/mod/core.ts, - src/mod/ghost.ts\n`util.ts`\n```', usage: { prompt_tokens: 100, completion_tokens: 10 } }
        : { chunks: ['# Design', ' doc', ' for mod'], usage: { prompt_tokens: 300, completion_tokens: 7 } },
    );
    const result = await run(SEED_001, { module_path: 'src/mod', task_description: 'core logic' });
    assert.equal(result.status, 'success', result.log.error);

    const [selection, final] = server.requests;
    assert.equal(server.requests.length, 2);
    assert.equal(selection.body?.model, 'tool-model');
    assert.match(selection.promptText, /src\/mod\/core\.ts/);
    assert.match(selection.promptText, /The core of the module\./, 'the selector sees summaries');
    assert.doesNotMatch(selection.promptText, /CORE_BODY/, 'summaries, not whole files');

    assert.equal(final.body?.model, 'main-model');
    assert.equal(final.body?.stream, true);
    assert.match(final.promptText, /CORE_BODY/);
    assert.match(final.promptText, /UTIL_BODY/, 'a unique suffix ("util.ts") is matched to its summarised path');
    assert.doesNotMatch(final.promptText, /OTHER_BODY/, 'an unselected file is not sent');
    assert.doesNotMatch(final.promptText, /ghost/, 'an invented path never reaches a file tool');

    const tokens = result.events.filter((e) => e.type === 'llm-token').map((e) => (e as { text: string }).text);
    assert.deepEqual(tokens, ['# Design', ' doc', ' for mod']);
    assert.equal(result.output, '# Design doc for mod');
    assert.deepEqual(result.log.steps[1].tokens, { input: 100, output: 10, total: 110 });
    assert.deepEqual(result.log.final?.tokens, { input: 300, output: 7, total: 307 });
    assert.deepEqual(result.log.total_tokens, { input: 400, output: 17, total: 417 });
    assert.deepEqual(result.log.steps[1].output_preview, '- src/mod/core.ts\n- src/mod/util.ts');
  });

  it('a dry run sends nothing and records every prompt it would have sent', async () => {
    const result = await run(SEED_001, { module_path: 'src/mod', task_description: 'core logic' }, { dryRun: true });
    assert.equal(result.status, 'success');
    assert.equal(server.requests.length, 0);
    const previews = result.events.filter((e) => e.type === 'prompt-preview') as Array<Extract<ExecutorEvent, { type: 'prompt-preview' }>>;
    assert.deepEqual(
      previews.map((p) => [p.tool, p.model]),
      [
        ['file_selector_llm_tool', 'tool-model'],
        ['final', 'main-model'],
      ],
    );
    assert.equal(result.log.final?.sent, false);
    assert.match(result.log.final!.messages[1].content, /CORE_BODY/);
    assert.equal(result.log.steps[1].prompts?.length, 1);
  });

  it('keeps the final prompt inside the input budget, cutting files visibly and warning', async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `const line${i} = ${i};`).join('\n');
    const local = tempWorkspace({ 'big/a.ts': big, 'big/b.ts': 'export const small = "SMALL_FILE";\n' });
    engine = await createCodewikiEngine({ workspaceRoot: local.root, builtinPromptsDir: BUILTIN, models: modelsFor(server.url) });
    server.respondWith(() => ({ text: 'ok' }));
    const yaml =
      'title: b\ntool_chain:\n  - tool: get_files_content_by_list\n    input: [big/a.ts, big/b.ts]\n    output_variable: files\nllm_prompt_template:\n  system: Be brief.\n  human: "Review:\\n{files}"\n';
    const result = await run(yaml, {}, { maxInputTokens: 2000 });
    local.cleanup();
    assert.equal(result.status, 'success', result.log.error);
    const sent = server
      .lastRequest()
      .body!.messages!.map((m) => String(m.content))
      .join('\n');
    assert.ok(estimateTokens(sent) <= 2000, `sent ${estimateTokens(sent)} tokens`);
    assert.match(sent, /SMALL_FILE/, 'the small file stays whole');
    assert.match(sent, /\[CodeWiki: cut [\d,]+ of 4,000 lines here to fit the context budget\]/);
    assert.ok(result.events.some((e) => e.type === 'warning' && /Cut big\/a\.ts from [\d,]+ to about [\d,]+ tokens/.test(e.message)));
    assert.ok(result.log.warnings.some((w) => /big\/a\.ts/.test(w)));
  });

  it('extract_json_llm_tool validates against the schema and repairs once', async () => {
    server.enqueue({ text: 'Sure! {"name": 42}' }, { text: '```json\n{"name": "codewiki", "stars": 3}\n```' });
    const yaml = `title: j
tool_chain:
  - tool: extract_json_llm_tool
    input:
      content: "codewiki has 3 stars"
      instructions: Extract the name and stars.
      schema: { type: object, required: [name, stars], properties: { name: { type: string }, stars: { type: number } } }
    output_variable: data
output: "{data.name}:{data.stars}"
`;
    const result = await run(yaml, {});
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, 'codewiki:3');
    assert.equal(server.requests.length, 2);
    const repair = server.messagesOf(1);
    assert.equal(repair.at(-2)?.role, 'assistant');
    assert.match(String(repair.at(-1)?.content), /does not match the schema/);
  });

  it('extract_json_llm_tool gives up after one repair with a clear error', async () => {
    server.enqueue({ text: 'no json' }, { text: 'still none' });
    const yaml = 'title: j\ntool_chain:\n  - tool: extract_json_llm_tool\n    input: { content: x, instructions: y }\n';
    const result = await run(yaml, {});
    assert.equal(result.status, 'failed');
    assert.match(result.log.error!, /did not return valid JSON after one repair attempt/);
  });

  it('runs an llm_tools entry declared in YAML, on the model it names', async () => {
    server.respondWith(() => ({ text: '- alpha\n- beta\n' }));
    const yaml = `title: y
llm_tools:
  - name: list_ideas
    description: Lists ideas
    parameters: [{ name: topic }]
    system: You list ideas about {topic}.
    human: "Ideas about {topic}:"
    output: list
    model: main
tool_chain:
  - tool: list_ideas
    input: "{topic}"
    output_variable: ideas
input_variables:
  - name: topic
`;
    const result = await run(yaml, { topic: 'testing' });
    assert.equal(result.status, 'success', result.log.error);
    assert.deepEqual(result.output, ['alpha', 'beta']);
    assert.equal(server.lastRequest().body?.model, 'main-model');
    assert.equal(server.messagesOf(0)[0].content, 'You list ideas about testing.');
  });

  it('max_tokens stops an answer that runs on: the request is closed, the words so far are the output, the step says so', async () => {
    // A model repeating itself: far more than the cap, then silence with the answer still open.
    const repeat = Array.from({ length: 40 }, () => 'again and again ');
    server.respondWith(() => ({ chunks: repeat, stall: 'mid-stream', stallAfterChunks: 40 }));
    const yaml = `title: y
llm_tools:
  - name: ramble
    description: Talks
    max_tokens: 20
    parameters: [{ name: topic }]
    human: Talk about {topic}.
tool_chain:
  - tool: ramble
    input: anything
    output_variable: talk
`;
    const result = await run(yaml, {});
    assert.equal(result.status, 'success', result.log.error);
    const output = String(result.output);
    assert.ok(output.startsWith('again and again'), output);
    assert.ok(output.length >= 60 && output.length < 140, `about 20 tokens kept, not the whole answer: ${output.length} characters`);
    assert.match(result.log.steps[0]!.warnings!.join('\n'), /ramble's answer in step "\w+" was stopped at about 20 tokens \(max_tokens\)/);
    await server.waitForClose(0);
    assert.equal(server.requests[0]!.finishedAt, undefined, 'the request was stopped, not finished');
    assert.equal(server.requests[0]!.body!.max_tokens, undefined, 'the cap is not sent: the prompt prefix stays the same');
  });

  it('runs a map-reduce prompt: a nested prompt per file in parallel on the tool model, then one answer', async () => {
    server.respondWith((request) =>
      request.body?.model === 'tool-model' ? { text: `summary of ${/File (\S+):/.exec(request.promptText)?.[1]}` } : { chunks: ['Overview', '.'] },
    );
    const entry = engine.catalog.entry('summarize-each-file')!;
    assert.ok(entry.prompt, JSON.stringify(entry.diagnostics));
    const result = await engine.executor.run(entry.prompt, { folder: 'src/mod', focus: 'purpose', max_files: 20 });
    assert.equal(result.status, 'success', result.log.error);
    const toolRequests = server.requests.filter((r) => r.body?.model === 'tool-model');
    assert.equal(toolRequests.length, 3);
    const final = server.requests.find((r) => r.body?.model === 'main-model')!;
    for (const file of Object.keys(FILES)) assert.match(final.promptText, new RegExp(`### ${file}\\nsummary of ${file}`));
    assert.doesNotMatch(final.promptText, /CORE_BODY/, 'the reduce step sees summaries, not files');
    assert.equal(result.log.steps[1].items, 3);
    assert.equal(result.log.steps[1].tokens.total > 0, true, 'nested LLM usage is counted on the step');
  });

  it('Stop during the answer aborts the request, closes the socket and keeps the partial answer', async () => {
    // After the role and the first words the server falls silent, the answer still open: Stop lands while it streams.
    server.respondWith(() => ({ chunks: ['partial', ' answer', ' never', ' finished'], stall: 'mid-stream', stallAfterChunks: 2 }));
    const controller = new AbortController();
    const yaml = 'title: s\nllm_prompt_template:\n  human: Hello\n';
    // A silence deadline far beyond the test's: only Stop can close this connection while the test runs.
    const models = new OpenAiModelProvider({ baseURL: server.url, model: 'main-model', timeoutMs: 120_000, maxRetries: 0 });
    // Stop as the user does, on seeing the first words of the answer.
    const result = await run(yaml, {}, { models, signal: controller.signal, onEvent: (e) => e.type === 'llm-token' && controller.abort() });
    assert.equal(result.status, 'cancelled');
    assert.equal(result.output, 'partial', 'the words that arrived before Stop are kept');
    assert.equal(result.log.final?.output, result.output);
    await server.waitForClose(0);
    assert.equal(server.requests[0]!.finishedAt, undefined, 'the server never finished its answer');
  });
});
