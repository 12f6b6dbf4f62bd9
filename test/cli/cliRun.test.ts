import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAiTestServer } from '../support/openaiServer';
import { tempWorkspace } from '../support/engineBuilders';
import { CLI, runCli, startCli } from '../support/runCli';

const FILES = {
  'src/mod/core.ts': '/** Core of the module. */\nexport function core() {\n  return "CORE_BODY";\n}\n',
  'src/mod/helper.ts': 'export const helper = "HELPER_BODY";\n',
  '.env': 'SECRET_TOKEN=do-not-send\n',
};

describe('codewiki run (CLI as a child process against a scripted OpenAI server)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const env = () => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', CODEWIKI_TOOL_MODEL: 'tool-model' });

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace(FILES);
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('runs the built-in module design prompt: prompts on the wire, streamed answer on stdout, steps on stderr, run log on disk', async () => {
    server.respondWith((request) =>
      request.body?.model === 'tool-model'
        ? { text: 'src/mod/core.ts', usage: { prompt_tokens: 50, completion_tokens: 5 } }
        : { chunks: ['## Design', '\n\nThe core', ' module.'], usage: { prompt_tokens: 200, completion_tokens: 9 } },
    );
    const log = join(ws.root, 'run-log.json');
    const result = await runCli(['run', 'module-design-doc', '--workspace', ws.root, '--input', 'module_path=src/mod', '--log', log], {
      env: { ...env(), CODEWIKI_API_KEY: 'sk-test-secret' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '## Design\n\nThe core module.\n');
    assert.match(result.stderr, /✓ summaries \(get_file_summaries\)/);
    assert.match(result.stderr, /✓ selection \(file_selector_llm_tool\) .*55 tokens/);
    assert.match(result.stderr, /✓ contents \(get_files_content_by_list\)/);

    const [selection, final] = server.requests;
    assert.equal(selection.body?.model, 'tool-model');
    assert.match(selection.promptText, /src\/mod\/helper\.ts/);
    assert.doesNotMatch(selection.promptText, /SECRET_TOKEN|\.env/, 'secrets are never summarised');
    assert.equal(final.body?.model, 'main-model');
    assert.match(final.promptText, /CORE_BODY/);
    assert.doesNotMatch(final.promptText, /HELPER_BODY/);
    assert.equal(final.headers.authorization, 'Bearer sk-test-secret');

    const written = readFileSync(log, 'utf8');
    assert.doesNotMatch(written, /sk-test-secret/, 'the key is never logged');
    assert.doesNotMatch(result.stderr, /sk-test-secret/);
    const runLog = JSON.parse(written);
    assert.equal(runLog.status, 'success');
    assert.equal(runLog.prompt_id, 'module-design-doc');
    assert.deepEqual(runLog.inputs.module_path, 'src/mod');
    assert.deepEqual(
      runLog.steps.map((s: { id: string; status: string }) => [s.id, s.status]),
      [
        ['summaries', 'success'],
        ['selection', 'success'],
        ['contents', 'success'],
      ],
    );
    assert.deepEqual(runLog.total_tokens, { input: 250, output: 14, total: 264 });
    assert.equal(runLog.output, '## Design\n\nThe core module.');
    assert.match(runLog.final.messages[1].content, /CORE_BODY/);
  });

  it('runs seed 001 from its file unchanged, with no Authorization header when no key is set', async () => {
    server.respondWith((request) => (request.body?.model === 'tool-model' ? { text: 'src/mod/helper.ts' } : { text: '设计文档' }));
    const seed = join(__dirname, '..', 'fixtures', 'seed-001-module-design.yaml');
    const result = await runCli(['run', seed, '--workspace', ws.root, '--input', 'module_path=src/mod'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '设计文档\n');
    assert.equal(server.requests[1].headers.authorization, undefined);
    assert.match(server.requests[1].promptText, /HELPER_BODY/);
    assert.match(server.requests[0].promptText, /这个模块的核心功能是处理大模型请求和管理插件状态。/, 'the default input is used');
  });

  it('--dry-run needs no model: it runs the file tools and prints every prompt it would send', async () => {
    const result = await runCli(['run', 'module-design-doc', '--dry-run', '--workspace', ws.root, '--input', 'module_path=src/mod']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /━━━ prompt for step selection \(file_selector_llm_tool\)/);
    assert.match(result.stdout, /━━━ prompt for final answer/);
    assert.match(result.stdout, /CORE_BODY/);
    assert.match(result.stderr, /dry run: no model is called/);
    assert.equal(server.requests.length, 0);
  });

  it('a missing required input is an error naming it, before any request (exit 2)', async () => {
    const result = await runCli(['run', 'module-design-doc', '--workspace', ws.root], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /module-design-doc\.yaml:\d+:\d+: input_variables\[0\] \(module_path\): the required input "module_path" is missing/);
    assert.equal(server.requests.length, 0);
  });

  it('on a terminal a missing required input is asked for', async function () {
    if (!require('node:fs').existsSync('/usr/bin/script')) this.skip();
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} run module-design-doc --dry-run --workspace ${JSON.stringify(ws.root)}`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('(module_path): ') && !child.stdin.writableEnded) child.stdin.end('src/mod\n');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, out);
    assert.match(out, /The module or folder to document \(module_path\): /);
    assert.match(out, /CORE_BODY/, 'the run used the answer');
  });

  it('a path input outside the workspace is refused (exit 2)', async () => {
    const result = await runCli(['run', 'explain-file', '--workspace', ws.root, '--input', 'file=../../etc/passwd'], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /outside the workspace/);
    assert.equal(server.requests.length, 0);
  });

  it('an invalid file is reported with file:line:col and nothing runs (exit 2)', async () => {
    const bad = join(ws.root, 'bad.yaml');
    require('node:fs').writeFileSync(bad, 'title: bad\ntool_chain:\n  - tool: no_such_tool\n');
    const result = await runCli(['run', bad, '--workspace', ws.root], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:11: tool_chain\\[0\\]\\.tool: unknown tool "no_such_tool"`));
  });

  it('without a model and without --dry-run it says what to configure (exit 2)', async () => {
    const result = await runCli(['run', 'module-design-doc', '--workspace', ws.root, '--input', 'module_path=src/mod']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no model configured: pass --model/);
  });

  it('an unknown prompt id (exit 2)', async () => {
    const result = await runCli(['run', 'nope', '--workspace', ws.root], { env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown action prompt "nope"; run "codewiki list"/);
  });

  it('a model failure exits 1 with the error in plain words', async () => {
    server.respondWith(() => ({ status: 400, body: { error: { message: 'bad request: context too long' } } }));
    const result = await runCli(['run', 'explain-file', '--workspace', ws.root, '--input', 'file=src/mod/core.ts'], { env: env() });
    assert.equal(result.code, 1);
    assert.equal(server.requests.length, 1, '400 is not retried');
    assert.match(result.stderr, /400 from http:\/\/127\.0\.0\.1:\d+\/v1/);
    assert.doesNotMatch(result.stderr, /    at /, 'no stack trace');
  });

  it('429 with Retry-After is retried and the run succeeds', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } }, { text: 'explained' });
    const result = await runCli(['run', 'explain-file', '--workspace', ws.root, '--input', 'file=src/mod/core.ts'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[1].arrivedAt - server.requests[0].arrivedAt >= 950, 'waited for Retry-After');
    assert.equal(result.stdout, 'explained\n');
  });

  it('a server that stalls hits the timeout (exit 1)', async () => {
    server.respondWith(() => ({ stall: 'before-headers' }));
    const result = await runCli(['run', 'explain-file', '--workspace', ws.root, '--input', 'file=src/mod/core.ts'], {
      env: { ...env(), CODEWIKI_TIMEOUT_SECONDS: '0.3', CODEWIKI_MAX_RETRIES: '0' },
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /timeout|timed out|No response/i);
  });

  it('Ctrl-C aborts the in-flight request, writes the log as cancelled and exits non-zero', async () => {
    server.respondWith(() => ({ chunks: ['partial', ' more', ' and more', ' end'], chunkDelayMs: 500 }));
    const log = join(ws.root, 'cancelled.json');
    const cli = startCli(['run', 'explain-file', '--workspace', ws.root, '--input', 'file=src/mod/core.ts', '--log', log], { env: env() });
    await server.waitForRequests(1);
    while (!cli.output().stdout.includes('partial')) await new Promise((r) => setTimeout(r, 20));
    cli.child.kill('SIGINT');
    const result = await cli.done;
    assert.equal(result.code, 130);
    await server.waitForClose(0);
    assert.match(result.stdout, /^partial/);
    const runLog = JSON.parse(readFileSync(log, 'utf8'));
    assert.equal(runLog.status, 'cancelled');
    assert.match(runLog.final.output, /^partial/);
  });
});
