import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import type { RunLog } from '../../src/core/engine/runLog';
import { StateManager, type AssistantMessage } from '../../src/core/history';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { describeLlmError } from '../../src/core/llm/describeLlmError';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { streamChat } from '../../src/core/llm/streamChat';
import { ConversationSession } from '../../src/core/session/conversationSession';
import type { HostToWebview } from '../../src/shared/protocol';
import { startCli } from '../support/runCli';
import { REPO_ROOT, startLocalModel, waitFor, type LocalModelServer } from './localModelServer';

const EXAMPLE = join(REPO_ROOT, 'example-workspace');

/**
 * The real-model tier: llama.cpp's own server with the pinned fast test model, temperature 0, two slots.
 * Assertions hold for any sane model: they check what the product does with an answer, never its wording.
 */
describe('real model: llama-server with pinned small weights', function () {
  this.timeout(240_000);
  let server: LocalModelServer;
  let scratch: string;

  before(async function () {
    this.timeout(600_000); // serve.sh verifies the cached server and weights before it starts
    // -n caps every answer: a tiny model may otherwise ramble until its context is full.
    server = await startLocalModel({ args: ['--parallel', '2', '--n-predict', '384'] });
  });
  after(async () => {
    await server?.stop();
  });
  const children: ChildProcess[] = [];
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'codewiki-real-'));
  });
  afterEach(async () => {
    // A CLI run left behind by a failed test would keep the server's slots busy for the next one.
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await waitFor(async () => (await server.busySlots()) === 0, 'the slots to be idle', 30_000).catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  });

  const cliEnv = () => ({ CODEWIKI_BASE_URL: server.baseUrl, CODEWIKI_MODEL: server.model });
  const cli = (args: string[]) => {
    const run = startCli(args, { env: cliEnv() });
    children.push(run.child);
    return run;
  };
  const readLog = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RunLog;

  // A server that runs but computes wrong answers (llama.cpp's repacked kernels on this machine kind's Xeon VMs
  // answered "000x,9") would pass every "non-empty answer" check below; any sane instruct model knows this.
  it('answers a question any instruct model knows (the server computes correctly)', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 16 });
    const answer = await models.model('main').invoke('What is the capital of France? Answer in one word.');
    assert.match(String(answer.content), /paris/i);
  });

  it('streams a plain chat answer, and its usage is saved with it', async () => {
    const history = (await StateManager.open(join(scratch, 'state'))).manager;
    const posted: HostToWebview[] = [];
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 48 });
    const session = new ConversationSession({ history, models: () => models, engine: async () => ({ unavailable: 'not needed for chat' }), runLogDir: join(scratch, 'runs'), post: (m) => posted.push(m) });
    await session.sendChat('Name three colours of the rainbow.');
    const chunks = posted.filter((m) => m.type === 'chat/chunk');
    assert.ok(chunks.length >= 2, `streamed in ${chunks.length} chunk(s)`);
    const [summary] = history.listConversations();
    const answer = history.getConversation(summary.id)!.messages[1] as AssistantMessage;
    assert.equal(answer.status, 'done');
    assert.ok(answer.text.trim().length > 0);
    assert.ok(answer.usage && answer.usage.input > 0 && answer.usage.output > 0, `usage ${JSON.stringify(answer.usage)}`);
    await history.dispose();
  });

  it('explain-file answers on example-workspace, with tokens in the run log', async () => {
    const log = join(scratch, 'run.json');
    const result = await cli(['run', 'explain-file', '--workspace', EXAMPLE, '--input', 'file=src/frequency.ts', '--log', log]).done;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.trim().length > 0, 'a non-empty answer');
    const run = readLog(log);
    assert.equal(run.status, 'success');
    assert.ok(run.final!.tokens.input > 0 && run.final!.tokens.output > 0, 'the answer has its tokens');
    assert.equal(run.total_tokens.total, run.final!.tokens.total + run.steps.reduce((n, s) => n + s.tokens.total, 0));
  });

  it('module-design-doc reads only files that exist, or says visibly that it fell back', async () => {
    const log = join(scratch, 'run.json');
    const result = await cli(['run', 'module-design-doc', '--workspace', EXAMPLE, '--input', 'module_path=src', '--input', 'max_files=3', '--log', log]).done;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.trim().length > 0, 'a non-empty answer');
    const run = readLog(log);
    const selection = run.steps.find((s) => s.id === 'selection')!;
    assert.ok(selection.tokens.total > 0, 'the LLM step has its tokens');
    const read = (run.steps.find((s) => s.id === 'contents')!.input as { file_paths: string[] | string }).file_paths;
    const paths = Array.isArray(read) ? read : read.split(/[,\n]/).map((p) => p.trim()).filter(Boolean);
    assert.ok(paths.length > 0, 'some files were read');
    for (const path of paths) assert.ok(existsSync(join(EXAMPLE, path)), `${path} exists`);
    if (selection.warnings?.some((w) => /named none/.test(w))) assert.match(result.stderr, /! file_selector_llm_tool: .*using the first/, 'the fallback is visible');
  });

  it('summarize-each-file keeps both server slots busy at once', async () => {
    const run = cli(['run', 'summarize-each-file', '--workspace', EXAMPLE, '--input', 'folder=src']);
    let peak = 0;
    const watching = (async () => {
      while (run.child.exitCode === null) {
        peak = Math.max(peak, await server.busySlots().catch(() => 0));
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    const result = await run.done;
    await watching;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(peak, 2, 'two requests were generating at the same time');
  });

  it('Stop frees the server slot', async () => {
    const model = createChatModel({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 4000 });
    const controller = new AbortController();
    let pieces = 0;
    const answer = streamChat(model, [new HumanMessage('Write a very long story about a lighthouse keeper, in many chapters.')], {
      signal: controller.signal,
      onToken: () => {
        if (++pieces === 5) controller.abort();
      },
    });
    await assert.rejects(answer);
    await waitFor(async () => (await server.busySlots()) === 0, 'the slot to be released', 5_000);
    assert.match(server.log(), /cancel/i, "llama-server's log shows the task was cancelled");
  });

  it('a prompt larger than the context is a clear error that names both sizes', async () => {
    const model = createChatModel({ baseURL: server.baseUrl, model: server.model, maxRetries: 2 });
    const error = await streamChat(model, [new HumanMessage('lighthouse '.repeat(12_000))]).then(
      () => assert.fail('the server accepted a prompt larger than its context'),
      (e: unknown) => e,
    );
    assert.match(describeLlmError(error, server.baseUrl), /the prompt \([\d,]+ tokens\) does not fit the server's context size \([\d,]+ tokens\)/);
  });

  it('fits a final prompt to the context size the server reports', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model });
    const engine = await createCodewikiEngine({ workspaceRoot: REPO_ROOT, builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    const size = await models.contextSize('main');
    assert.ok(size && size > 0, 'llama-server reports its context size');
    const result = await engine.executor.run(engine.catalog.get('explain-file')!, { file: 'README.md' });
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.log.input_budget?.server_context, size);
  });
});
