import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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
import { startRecordingProxy, type Exchange, type RecordingProxy } from './recordingProxy';

const EXAMPLE = join(REPO_ROOT, 'example-workspace');

/**
 * The real-model tier: llama.cpp's own server with the pinned fast test model, temperature 0, two slots.
 * Assertions hold for any sane model: they check what the product does with an answer, and of the answer only
 * what the question decides (a colour of the rainbow, the file that was asked about), never its wording.
 */
describe('real model: llama-server with pinned small weights', function () {
  this.timeout(240_000);
  let server: LocalModelServer;
  let scratch: string;
  let proxy: RecordingProxy | undefined;

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
    await proxy?.close();
    proxy = undefined;
    await waitFor(async () => (await server.busySlots()) === 0, 'the slots to be idle', 30_000).catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  });

  const cli = (args: string[], baseUrl = server.baseUrl) => {
    const run = startCli(args, { env: { CODEWIKI_BASE_URL: baseUrl, CODEWIKI_MODEL: server.model } });
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
    const session = new ConversationSession({
      history,
      models: () => models,
      engine: async () => ({ unavailable: 'not needed for chat' }),
      runLogDir: join(scratch, 'runs'),
      post: (m) => posted.push(m),
    });
    await session.sendChat('Name the colours of the rainbow, separated by commas.');
    const chunks = posted.filter((m) => m.type === 'chat/chunk');
    assert.ok(chunks.length >= 2, `streamed in ${chunks.length} chunk(s)`);
    const [summary] = history.listConversations();
    const answer = history.getConversation(summary.id)!.messages[1] as AssistantMessage;
    assert.equal(answer.status, 'done');
    assert.match(answer.text, /red|orange|yellow|green|blue|indigo|violet/i, `the answer names a colour of the rainbow: ${JSON.stringify(answer.text)}`);
    assert.ok(answer.usage && answer.usage.input > 0 && answer.usage.output > 0, `usage ${JSON.stringify(answer.usage)}`);
    await history.dispose();
  });

  it('explain-file answers on example-workspace, with tokens in the run log', async () => {
    const log = join(scratch, 'run.json');
    const result = await cli(['run', 'explain-file', '--workspace', EXAMPLE, '--input', 'file=src/frequency.ts', '--log', log]).done;
    assert.equal(result.code, 0, result.stderr);
    // The file holds countWords and topWords: an explanation of it names one of them or what they compute.
    assert.match(result.stdout, /countWords|topWords|frequen/i, `the answer is about src/frequency.ts: ${JSON.stringify(result.stdout.slice(0, 400))}`);
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
    const paths = Array.isArray(read)
      ? read
      : read
          .split(/[,\n]/)
          .map((p) => p.trim())
          .filter(Boolean);
    assert.ok(paths.length > 0 && paths.length <= 3, `one to max_files (3) files were read: ${JSON.stringify(paths)}`);
    for (const path of paths) assert.ok(existsSync(join(EXAMPLE, path)), `${path} exists`);
    // Either outcome is a sane model's; each is checked, and the user sees which one happened.
    const fellBack = (selection.warnings ?? []).some((w) => /named none/.test(w));
    assert.equal(
      /! file_selector_llm_tool: .*using the first/.test(result.stderr),
      fellBack,
      `stderr shows the fallback exactly when the run log records one:\n${result.stderr}`,
    );
    const summarised = readdirSync(join(EXAMPLE, 'src'))
      .map((name) => `src/${name}`)
      .sort();
    if (fellBack) assert.deepEqual(paths, summarised.slice(0, 3), 'the fallback reads the first summarised files');
    else
      assert.ok(
        paths.every((path) => summarised.includes(path)),
        `the model's choice is among the summarised files: ${JSON.stringify(paths)}`,
      );
  });

  it('summarize-each-file keeps both server slots busy at once', async () => {
    // The CLI talks to llama-server through a recording proxy: it shows when two model calls are open at once.
    proxy = await startRecordingProxy(server.origin);
    const recording = proxy;
    const isChat = (e: Exchange) => e.path === '/v1/chat/completions';
    const run = cli(['run', 'summarize-each-file', '--workspace', EXAMPLE, '--input', 'folder=src'], recording.baseUrl);
    const exited = run.done.then(() => 'the run ended' as const);
    const twoOpen = new Promise<'two calls open'>((resolve) => {
      const check = () => recording.inFlight().length >= 2 && resolve('two calls open');
      recording.on('request', check);
    });
    assert.equal(await Promise.race([twoOpen, exited]), 'two calls open', 'the for_each pool had two model calls open at once');
    // While both are open, llama-server must say both slots are processing: with one slot, the second call waits
    // in its queue until the first has ended.
    let ended = false;
    recording.on('end', (e: Exchange) => (ended ||= isChat(e)));
    const bothBusy = async () => {
      for (; !ended; await delay(50)) if ((await server.busySlots()) === 2) return 'both slots processing';
      return 'a call ended first';
    };
    assert.equal(await bothBusy(), 'both slots processing', 'two requests were processed at the same time');
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
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
