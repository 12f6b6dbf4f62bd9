import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { CLI, runCli } from '../support/runCli';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** A chain of file tools only: nothing in it calls a model. */
const FIND_TODOS =
  'title: Find TODOs\ninput_variables:\n  - name: word\n    default: TODO\n  - name: depth\n    type: number\n    required: false\ntool_chain:\n  - id: hits\n    tool: search_text\n    input: { query: "{word}" }\n    output_variable: hits\n';
/** Calls the built-in summarize-file (an LLM tool inside) as a nested prompt. */
const NESTED_LLM = 'title: Nested\ntool_chain:\n  - id: outer\n    tool: summarize-file\n    input: { path: "src/a.ts" }\n    output_variable: summary\n';
const BROKEN = 'title: Broken\ntool_chain:\n  - tool: search_text\n    input: { query: "{nope}" }\n';
const BROKEN_AGENT = 'name: helper\ndescription: helps\nbogus: 1\n';

describe('codewiki CLI usability: version, help, validate and list without files, broken pipes, runs without a model', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace({
      '.codewiki/prompts/find-todos.yaml': FIND_TODOS,
      '.codewiki/prompts/nested.yaml': NESTED_LLM,
      'src/a.ts': '/** A. */\nexport function a() {\n  return 1; // TODO: tidy\n}\n',
    });
  });
  afterEach(() => ws.cleanup());

  it('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `codewiki ${PACKAGE_VERSION}\n`);
  });

  it('run --help prints the usage, not a parser error', async () => {
    const result = await runCli(['run', '--help']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^codewiki run <file\.yaml \| built-in id> \[options\]/);
    assert.match(result.stdout, /--dry-run/);
    assert.equal(result.stderr, '');
    for (const command of ['validate', 'list', 'tools', 'ask']) {
      const help = await runCli([command, '--help']);
      assert.equal(help.code, 0, `${command}: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`^codewiki ${command} `));
    }
  });

  it("run <id> --help prints that prompt's inputs with their types, and whether it needs a model", async () => {
    const builtin = await runCli(['run', 'explain-file', '--help', '--workspace', ws.root]);
    assert.equal(builtin.code, 0, builtin.stderr);
    assert.match(builtin.stdout, /^codewiki run explain-file --input name=value… \[options\]/);
    assert.match(builtin.stdout, /^ {2}file +path, required — The file to explain$/m);
    assert.match(builtin.stdout, /^ {2}audience +one of "newcomer", "maintainer", "reviewer", default "newcomer"/m);
    assert.match(builtin.stdout, /Calls a model .*the final answer/);
    assert.match(builtin.stdout, /codewiki run explain-file --input file=src/);

    const mine = await runCli(['run', 'find-todos', '-h', '--workspace', ws.root]);
    assert.equal(mine.code, 0, mine.stderr);
    assert.match(mine.stdout, /^ {2}word +text, default "TODO"$/m);
    assert.match(mine.stdout, /^ {2}depth +number, optional$/m);
    assert.match(mine.stdout, /Calls no model: runs without --model\./);
  });

  it('a parser error is one plain line pointing at --help (exit 2)', async () => {
    const missing = await runCli(['run', 'find-todos', '--input']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'codewiki: --input needs a value; see "codewiki run --help"\n');
    const list = await runCli(['list', 'extra']);
    assert.equal(list.code, 2);
    assert.equal(list.stderr, 'codewiki: unexpected argument "extra"; see "codewiki list --help"\n');
  });

  it("validate without files checks the workspace's prompts and agent definitions", async () => {
    const clean = await runCli(['validate'], { cwd: ws.root });
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.deepEqual(clean.stdout.trim().split('\n').sort(), ['.codewiki/prompts/find-todos.yaml: ok', '.codewiki/prompts/nested.yaml: ok']);

    require('node:fs').writeFileSync(join(ws.root, '.codewiki/prompts/broken.yaml'), BROKEN);
    require('node:fs').mkdirSync(join(ws.root, '.codewiki/agents'));
    require('node:fs').writeFileSync(join(ws.root, '.codewiki/agents/helper.yaml'), BROKEN_AGENT);
    const broken = await runCli(['validate'], { cwd: ws.root });
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /^\.codewiki\/prompts\/broken\.yaml:4:21: tool_chain\[0\]\.input\.query: \{nope\} is not defined/m);
    assert.match(broken.stdout, /^\.codewiki\/agents\/helper\.yaml:3:1: bogus: unknown field "bogus"$/m);
    assert.match(broken.stdout, /^\.codewiki\/prompts\/find-todos\.yaml: ok$/m);

    const empty = tempWorkspace({ 'a.txt': 'x' });
    try {
      const none = await runCli(['validate', '--workspace', empty.root]);
      assert.equal(none.code, 0, none.stderr);
      assert.match(none.stdout, /^no action prompts or agent definitions in /);
    } finally {
      empty.cleanup();
    }
  });

  it("list shows each prompt's inputs and exits 0 only when every prompt is valid", async () => {
    const ok = await runCli(['list', '--workspace', ws.root]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(
      ok.stdout,
      /^explain-file +built-in +Explain a file\n +inputs: file: path · audience: newcomer\|maintainer\|reviewer = "newcomer" · question\?: multiline$/m,
    );
    assert.match(ok.stdout, /^find-todos +workspace +Find TODOs\n +\.codewiki\/prompts\/find-todos\.yaml\n +inputs: word: text = "TODO" · depth\?: number$/m);
    const json = JSON.parse((await runCli(['list', '--json', '--workspace', ws.root])).stdout) as Array<{
      id: string;
      inputs: Array<{ name: string; type: string; required: boolean }>;
    }>;
    assert.deepEqual(json.find((e) => e.id === 'explain-file')!.inputs[0], { name: 'file', type: 'path', required: true, description: 'The file to explain' });

    require('node:fs').writeFileSync(join(ws.root, '.codewiki/prompts/broken.yaml'), BROKEN);
    const invalid = await runCli(['list', '--workspace', ws.root]);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stdout, /^broken +workspace +INVALID — /m);
    assert.equal((await runCli(['list', '--json', '--workspace', ws.root])).code, 1);
  });

  it('`codewiki tools | head -1` never crashes: a reader that leaves early ends the command quietly, every time', async function () {
    this.timeout(120_000);
    // A real pipe closed early by a real `head`, many times over: before the fix about three runs in five crashed with EPIPE.
    const runs = 12;
    const script = `for i in $(seq ${runs}); do ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@" 2>>"$ERR" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"; done`;
    for (const args of [
      ['tools', '--workspace', ws.root],
      ['list', '--workspace', ws.root],
    ]) {
      const err = join(ws.root, `stderr-${args[0]}.txt`);
      const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn('bash', ['-c', script, 'pipe-test', ...args], { env: { ...process.env, ERR: err }, stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d));
        child.on('close', (code) => resolve({ code, stdout }));
      });
      assert.equal(result.code, 0);
      assert.deepEqual(result.stdout.trim().split('\n'), Array(runs).fill('0'), `exit statuses of ${args[0]}`);
      const stderr = require('node:fs').existsSync(err) ? readFileSync(err, 'utf8') : '';
      assert.equal(stderr, '', `${args[0]} wrote to stderr`);
    }
  });

  it('the tools schema caps get_file_summaries.max_files where its description says', async () => {
    const tools = JSON.parse((await runCli(['tools', '--json', '--workspace', ws.root])).stdout) as Array<{
      name: string;
      parameters: { properties: Record<string, { maximum?: number; description?: string }> };
    }>;
    const maxFiles = tools.find((t) => t.name === 'get_file_summaries')!.parameters.properties.max_files;
    assert.equal(maxFiles.maximum, 50_000);
    assert.match(maxFiles.description!, /max 50000/);
  });
});

describe('codewiki run: a chain with no LLM step needs no model', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({
      '.codewiki/prompts/find-todos.yaml': FIND_TODOS,
      '.codewiki/prompts/nested.yaml': NESTED_LLM,
      'src/a.ts': 'export const a = 1; // TODO: tidy\n',
    });
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('runs a file-tools-only chain without --model and prints its output', async () => {
    const result = await runCli(['run', 'find-todos', '--workspace', ws.root]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /src\/a\.ts:1:\d+: export const a = 1; \/\/ TODO: tidy/);
    assert.match(result.stderr, /✓ hits \(search_text\)/);
  });

  it('still asks for a model when a nested prompt calls one, naming where', async () => {
    const result = await runCli(['run', 'nested', '--workspace', ws.root]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no model configured: pass --model .*step "outer" \(summarize-file\) → step "summarize" \(summarize_source\)/);
    server.respondWith(() => ({ text: 'A summary.' }));
    const withModel = await runCli(['run', 'nested', '--workspace', ws.root], { env: { CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model' } });
    assert.equal(withModel.code, 0, withModel.stderr);
    assert.equal(server.requests.length, 1, 'the nested LLM tool reached the server');
  });
});
