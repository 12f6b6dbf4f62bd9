import { strict as assert } from 'node:assert';
import { isProcessAlive } from '../../src/core/util/processLiveness';
import { FAKE_SERVE, fakeServeWorld, serverStopped, waitUntil, type FakeServeWorld } from '../localModel/localModelFixture';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli, startCli } from '../support/runCli';

const SUMMARY_PROMPT =
  'title: Summarize\ntool_chain:\n  - id: files\n    tool: list_files\n    input: { path: "." }\n    output_variable: files\nllm_prompt_template:\n  human: "Summarize {files}"\n';
const FILES_ONLY = 'title: Files\ntool_chain:\n  - id: files\n    tool: list_files\n    input: { path: "." }\n    output_variable: files\n';

/**
 * `codewiki ask` and `run` with no endpoint configured start the shared local model on demand and reuse it,
 * here with the serve.sh stand-in (test/localModel/fixtures/fake-serve.sh, named by CODEWIKI_LOCAL_MODEL_SERVE):
 * the real CLI, real processes, the real lease watcher. test/realModel/cliLocalModel.test.ts does it with llama-server.
 */
describe('codewiki CLI with no endpoint: the local model, started on demand', function () {
  this.timeout(60_000);
  let world: FakeServeWorld;
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    world = fakeServeWorld();
    ws = tempWorkspace({ '.codewiki/prompts/summarize.yaml': SUMMARY_PROMPT, '.codewiki/prompts/files.yaml': FILES_ONLY, 'src/a.ts': 'export const a = 1;\n' });
  });
  afterEach(() => {
    world.cleanup();
    ws.cleanup();
  });
  const env = (extra: Record<string, string> = {}) => ({
    CODEWIKI_LOCAL_MODEL: '',
    CODEWIKI_LOCAL_MODEL_SERVE: FAKE_SERVE,
    CODEWIKI_CACHE_DIR: world.cacheDir,
    CODEWIKI_LEASE_POLL: '0.1',
    FAKE_SERVE_STARTS: world.startsFile,
    ...extra,
  });

  it('ask starts it and answers on it, the next ask reuses it, status shows who holds it, stop ends it', async () => {
    const first = await runCli(['ask', 'What is in src?', '--workspace', ws.root, '--no-index'], { env: env() });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Answered by the local model fake-default\./);
    assert.match(first.stderr, /^· local model: building llama-server 50%$/m, 'progress while it builds');
    assert.match(first.stderr, /^using the local model fake-default \(llama\.cpp at http:\/\/127\.0\.0\.1:\d+\/v1; started\)$/m);
    assert.match(first.stderr, /stays up 10 minutes after the last command/);
    const [pid] = world.starts();
    assert.ok(pid && isProcessAlive(pid), 'the server outlives the command (its idle time)');

    const second = await runCli(['ask', 'And in the root?', '--workspace', ws.root, '--no-index'], { env: env() });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /^using the local model fake-default \(llama\.cpp at http:\/\/127\.0\.0\.1:\d+\/v1; reused\)$/m);
    assert.doesNotMatch(second.stderr, /building/);
    assert.deepEqual(world.starts(), [pid], 'one server for both');

    const status = await runCli(['local-model', 'status'], { env: env() });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^local model fake-default \\(llama\\.cpp at http://127\\.0\\.0\\.1:\\d+/v1\\), pid ${pid}, started `, 'm'));
    assert.equal(status.stdout.match(/held by pid \d+, or until /g)?.length, 2, 'each finished command lingers');

    const stop = await runCli(['local-model', 'stop'], { env: env() });
    assert.match(stop.stderr, /^stopped the local model fake-default/);
    assert.equal(isProcessAlive(pid!), false);
    const none = await runCli(['local-model', 'status'], { env: env() });
    assert.equal(none.code, 1);
    assert.equal(none.stdout, 'no local model is running\n');
  });

  it('run starts it only for a prompt that calls a model: not for file tools alone, not for a dry run', async () => {
    const files = await runCli(['run', 'files', '--workspace', ws.root], { env: env() });
    assert.equal(files.code, 0, files.stderr);
    const dry = await runCli(['run', 'summarize', '--dry-run', '--workspace', ws.root], { env: env() });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(world.starts(), [], 'nothing started');

    const summary = await runCli(['run', 'summarize', '--workspace', ws.root], { env: env() });
    assert.equal(summary.code, 0, summary.stderr);
    assert.match(summary.stdout, /Answered by the local model fake-default\./);
    assert.match(summary.stderr, /using the local model fake-default \(llama\.cpp at \S+; started\)/);
  });

  it('with an idle time of 0 the server stops when the command ends; CODEWIKI_LOCAL_MODEL names the model', async () => {
    const result = await runCli(['ask', 'Hi', '--workspace', ws.root, '--no-index'], {
      env: env({ CODEWIKI_LOCAL_MODEL_IDLE_MINUTES: '0', CODEWIKI_LOCAL_MODEL: 'fake-other' }),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Answered by the local model fake-other\./);
    await waitUntil(serverStopped(world.starts()[0]!), 'the server to stop after the command');
  });

  it('is not started when half an endpoint is configured or CODEWIKI_LOCAL_MODEL=off', async () => {
    const half = await runCli(['ask', 'Hi', '--workspace', ws.root], { env: env({ CODEWIKI_BASE_URL: 'http://127.0.0.1:9/v1' }) });
    assert.equal(half.code, 2);
    assert.match(half.stderr, /no model configured/);
    const off = await runCli(['ask', 'Hi', '--workspace', ws.root], { env: env({ CODEWIKI_LOCAL_MODEL: 'off' }) });
    assert.equal(off.code, 2);
    assert.deepEqual(world.starts(), []);
  });

  it('local-model start --hold PID (start.sh): prints the ready line, and the server stops once PID is gone', async () => {
    const holder = world.holder();
    const result = await runCli(['local-model', 'start', '--hold', String(holder.pid), '--model', 'fake-other'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^local model ready: http:\/\/127\.0\.0\.1:\d+\/v1 model=fake-other\n$/);
    assert.match(result.stderr, new RegExp(`it stays up while process ${holder.pid} runs`));
    const [pid] = world.starts();
    assert.ok(isProcessAlive(pid!), 'held while the holder runs, though the command has ended');
    holder.kill('SIGKILL');
    await waitUntil(serverStopped(pid!), 'the server to stop with its holder');
  });

  it('Ctrl-C while it builds stops the build and exits 130', async () => {
    const run = startCli(['ask', 'Hi', '--workspace', ws.root], { env: env({ FAKE_SERVE_HANG: '1' }) });
    await waitUntil(() => /step 5 of 5/.test(run.output().stderr), 'the build to be under way');
    run.child.kill('SIGINT');
    const result = await run.done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /cancelled while starting the local model/);
    await waitUntil(serverStopped(world.starts()[0]!), 'the serve script to be stopped');
  });
});
