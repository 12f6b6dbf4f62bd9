import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRunLog } from '../../src/core/agent';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer, type Turn } from '../support/openaiServer';
import { CLI, runCli, startCli } from '../support/runCli';
import { toolText } from './agentHarness';

const FILES = { 'src/a.ts': 'export const a = "A_BODY";\n', 'notes.md': 'notes\n' };

describe('codewiki ask (the built CLI as a child process)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;

  async function start(turns: Turn[]): Promise<void> {
    server = new OpenAiTestServer(turns);
    await server.start();
  }
  // --no-index: these tests are about the loop, approvals and exit codes; test/codebaseIndex covers ask with the index.
  const ask = (...args: string[]) => runCli(['ask', ...args, '--no-index', '--workspace', ws.root, '--base-url', server.url, '--model', 'test-model']);
  const toolLines = (stderr: string) => stderr.split('\n').filter((line) => /^[✓✗⊘↷] /.test(line));

  beforeEach(() => {
    ws = tempWorkspace(FILES);
  });
  afterEach(async () => {
    await server?.close();
    ws.cleanup();
  });

  it('prints the answer on stdout, one line per tool call on stderr, and writes the --log', async () => {
    await start([
      {
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'src/a.ts' } },
          { id: 'c2', name: 'search_text', arguments: { query: 'A_BODY' } },
        ],
        usage: { prompt_tokens: 900, completion_tokens: 20 },
      },
      { text: 'a is "A_BODY".', usage: { prompt_tokens: 1200, completion_tokens: 8 } },
    ]);
    const logFile = join(ws.root, 'ask-log.json');
    const result = await ask('What is a?', '--log', logFile);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'a is "A_BODY".\n');
    const lines = toolLines(result.stderr).sort(); // concurrent reads finish in any order
    assert.equal(lines.length, 2, result.stderr);
    assert.match(lines[0]!, /^✓ read_file path="src\/a\.ts" \(\d+ ms\)$/);
    assert.match(lines[1]!, /^✓ search_text query="A_BODY" \(\d+ ms\)$/);
    assert.match(result.stderr.trimEnd().split('\n').at(-1)!, /^■ answered · 2 tool calls · 2,128 tokens · [\d.]+ m?s$/, 'the last line sums the run up');

    const log = JSON.parse(readFileSync(logFile, 'utf8')) as AgentRunLog;
    assert.equal(log.stopReason, 'answered');
    assert.equal(log.answer, 'a is "A_BODY".');
    assert.equal(log.model, 'test-model');
    assert.equal(log.iterations.length, 2);
    assert.deepEqual(log.tokens, { input: 2100, output: 28, total: 2128 });
    const [first, second] = log.iterations;
    assert.deepEqual(first!.tokens, { input: 900, output: 20, total: 920 });
    assert.equal(first!.finishReason, 'tool_calls');
    assert.deepEqual(
      first!.toolCalls.map((c) => [c.id, c.tool, c.args, c.status]),
      [
        ['c1', 'read_file', { path: 'src/a.ts' }, 'ok'],
        ['c2', 'search_text', { query: 'A_BODY' }, 'ok'],
      ],
    );
    for (const call of first!.toolCalls) {
      assert.equal(typeof call.durationMs, 'number');
      assert.deepEqual(call.tokens, { input: 0, output: 0, total: 0 });
      assert.match(call.output!, /A_BODY/);
    }
    assert.equal(second!.text, 'a is "A_BODY".');
    assert.equal(second!.toolCalls.length, 0);
  });

  it('a tool call the model writes as text in its answer runs, and never reaches stdout', async () => {
    // What a real Qwen2.5-Coder 1.5B does on its first turn: the call as a fenced JSON block, streamed word by word.
    await start([{ text: 'I will look.\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```' }, { text: 'a is "A_BODY".' }]);
    const result = await ask('What is a?');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'I will look.\n\na is "A_BODY".\n');
    assert.match(toolLines(result.stderr).join('\n'), /^✓ read_file path="src\/a\.ts"/);
  });

  it('without a terminal and without --allow, a write is denied, the file is untouched and the model is told', async () => {
    await start([
      { toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'notes.md', content: 'overwritten\n' } }] },
      { text: 'I could not write it.' },
    ]);
    const result = await ask('rewrite the notes');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'I could not write it.\n');
    assert.equal(readFileSync(join(ws.root, 'notes.md'), 'utf8'), 'notes\n');
    assert.deepEqual(toolLines(result.stderr), ['⊘ write_file path="notes.md" content="overwritten\\n" — denied']);
    const told = toolText(server.messagesOf(1).find((m) => m.role === 'tool')!.content);
    assert.match(told, /The user denied this call; it did not run\. Reason: nobody could be asked for approval \(no terminal\).*--allow write/);
  });

  it('on a terminal, asks y/N with the diff first (run under script(1) for a real pty)', async function () {
    if (process.platform === 'win32' || spawnSync('script', ['--version']).status !== 0) this.skip();
    await start([
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes.md', old_text: 'notes', new_text: 'NOTES' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'other.md', content: 'x\n' } }] },
      { text: 'edited one, not the other' },
    ]);
    const command = [process.execPath, CLI, 'ask', 'edit', '--no-index', '--workspace', ws.root, '--base-url', server.url, '--model', 'test-model']
      .map((a) => `'${a}'`)
      .join(' ');
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(CODEWIKI_|OPENAI_)/.test(key)));
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let prompts = 0;
    const answers = ['y\n', 'n\n'];
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const asked = output.split('Allow? ').length - 1;
      while (prompts < asked) child.stdin.write(answers[prompts++] ?? 'n\n');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, output);
    assert.equal(prompts, 2);
    assert.match(
      output,
      /\? Edit file \(edit_file\) wants to edit notes\.md:\r?\n--- a\/notes\.md\r?\n\+\+\+ b\/notes\.md\r?\n@@ -1 \+1 @@\r?\n-notes\r?\n\+NOTES/,
    );
    assert.match(output, /Allow\? \[y\]es once \/ \[a\]llow for this run \/ \[N\]o: /);
    assert.equal(readFileSync(join(ws.root, 'notes.md'), 'utf8'), 'NOTES\n');
    assert.equal(existsSync(join(ws.root, 'other.md')), false);
    assert.match(output, /edited one, not the other/);
  });

  it('--allow write lets writes run; run_command still needs --allow execute', async () => {
    await start([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out/new.md', content: 'new\n' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] },
      { text: 'done' },
    ]);
    const result = await ask('write and run', '--allow', 'write');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(ws.root, 'out/new.md'), 'utf8'), 'new\n');
    assert.equal(existsSync(join(ws.root, 'ran.txt')), false);
    assert.deepEqual(
      toolLines(result.stderr).map((l) => l.split(' ')[0] + ' ' + l.split(' ')[1]),
      ['✓ write_file', '⊘ run_command'],
    );
  });

  it('--allow execute runs simple commands but not compound ones', async () => {
    await start([
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch simple.txt' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch a.txt && touch b.txt' } }] },
      { text: 'done' },
    ]);
    const result = await ask('run', '--allow', 'execute');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(ws.root, 'simple.txt')));
    assert.equal(existsSync(join(ws.root, 'a.txt')), false);
  });

  it('--tools limits the tools offered, --no-tools offers none, @mentions force a tool', async () => {
    await start([{ text: 'one' }, { text: 'two' }, { toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'three' }]);
    assert.equal((await ask('q', '--tools', 'read_file,list_files')).code, 0);
    assert.deepEqual(
      server.requests[0]!.body!.tools!.map((t) => t.function.name),
      ['read_file', 'list_files'],
    );
    assert.equal((await ask('q', '--no-tools')).code, 0);
    assert.equal(server.requests[1]!.body!.tools, undefined);
    assert.equal((await ask('use @list_files please')).code, 0);
    assert.deepEqual(server.requests[2]!.body!.tool_choice, { type: 'function', function: { name: 'list_files' } });
  });

  it('exit codes: 2 for usage errors, 1 when the model fails', async () => {
    await start([{ status: 401, body: { error: { message: 'nope' } } }]);
    assert.equal((await ask()).code, 2);
    assert.equal((await ask('q', '--allow', 'read')).code, 2);
    assert.equal((await ask('q', '--tools', 'rm_rf')).code, 2);
    assert.equal((await ask('q', '--max-iterations', '0')).code, 2);
    const noModel = await runCli(['ask', 'q', '--workspace', ws.root]);
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /no model configured/);
    const failed = await ask('q');
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /401 from http:\/\/127\.0\.0\.1:\d+\/v1: check the API key/);
  });

  it('Ctrl-C cancels: exit 130, the request is closed, and the log says cancelled', async () => {
    await start([{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { stall: 'before-headers' }]);
    const logFile = join(ws.root, 'cancel-log.json');
    const running = startCli(['ask', 'q', '--workspace', ws.root, '--base-url', server.url, '--model', 'test-model', '--log', logFile]);
    await server.waitForRequests(2, 10_000);
    running.child.kill('SIGINT');
    const result = await running.done;
    assert.equal(result.code, 130, result.stderr);
    await server.waitForClose(1);
    const log = JSON.parse(readFileSync(logFile, 'utf8')) as AgentRunLog;
    assert.equal(log.stopReason, 'cancelled');
    assert.equal(log.iterations[0]!.toolCalls[0]!.status, 'ok');
  });

  it('codewiki tools shows whether the agent may call each tool and its toggle state', async () => {
    server = new OpenAiTestServer();
    const text = await runCli(['tools', '--workspace', ws.root]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^search_text {2}\[search, read, timeout 60 s\] {2}agent: on$/m);
    assert.match(text.stdout, /^file_selector_llm_tool {2}\[llm, think, timeout 180 s\] {2}agent: not callable$/m);
    assert.match(text.stdout, /^run_command {2}\[shell, execute, timeout 70 s\] {2}agent: on, agent only$/m);
    const limited = await runCli(['tools', '--workspace', ws.root, '--tools', 'read_file']);
    assert.match(limited.stdout, /^search_text .* agent: off$/m);
    const json = JSON.parse((await runCli(['tools', '--json', '--workspace', ws.root, '--no-tools'])).stdout) as Array<{
      name: string;
      agentCallable: boolean;
      agent: string;
    }>;
    const byName = new Map(json.map((t) => [t.name, t]));
    assert.equal(byName.get('read_file')!.agentCallable, true);
    assert.equal(byName.get('read_file')!.agent, 'off (all agent tools are off)');
    assert.equal(byName.get('summarize_llm_tool')!.agentCallable, false);
    assert.ok(json.every((t) => !('enabledByDefault' in t)));
  });

  it('AGENTS.md is named on stderr before the answer and reaches the model in the system prompt', async () => {
    await start([{ text: 'Done.' }]);
    writeFileSync(join(ws.root, 'AGENTS.md'), 'Always answer in one word. MARKER_AGENTS\n');
    const result = await ask('Hi?');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^⚑ project instructions: AGENTS\.md \(\d+ tokens\)$/m);
    assert.equal(result.stdout, 'Done.\n');
    assert.match(String(server.requests[0]!.body!.messages![0]!.content), /From AGENTS\.md:\nAlways answer in one word\. MARKER_AGENTS/);
  });
});
