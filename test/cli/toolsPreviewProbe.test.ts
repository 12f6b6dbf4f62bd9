import { strict as assert } from 'node:assert';
import type { PromptPreview } from '../../src/core/toolTester';
import type { ProbeResult } from '../../src/core/toolTester';
import { tempWorkspace } from '../support/engineBuilders';
import { echoKeyInEveryForm, receivedKey } from '../support/keyEchoingTurns';
import { OpenAiTestServer, type RecordedRequest, type Turn } from '../support/openaiServer';
import { runCli, startCli } from '../support/runCli';

const FILES = { 'README.md': '# Demo\n', 'src/a.ts': 'export const a = 1;\n' };
const TOOLS_HEADING = '━━━ tools ━━━';
const PROMPT_HEADING = '━━━ system prompt ━━━';

/** The two headed sections of the human-readable preview, and the tools JSON when there is one. */
function sections(stdout: string): { prompt: string; tools: string; json?: Array<{ type: string; function: { name: string } }> } {
  const start = stdout.indexOf(`${PROMPT_HEADING}\n`);
  const toolsAt = stdout.lastIndexOf(`\n${TOOLS_HEADING}\n`);
  assert.ok(start >= 0 && toolsAt > start, `both headings, in order:\n${stdout}`);
  const tools = stdout.slice(toolsAt + TOOLS_HEADING.length + 2);
  const jsonStart = tools.indexOf('\n[');
  return { prompt: stdout.slice(start + PROMPT_HEADING.length + 1, toolsAt), tools, json: jsonStart >= 0 ? JSON.parse(tools.slice(jsonStart)) : undefined };
}

/** `codewiki tools --preview`: the built CLI as a child process. */
describe('codewiki tools --preview (the built CLI)', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: OpenAiTestServer | undefined;
  const preview = (...args: string[]) => runCli(['tools', '--preview', '--workspace', ws.root, ...args]);
  beforeEach(() => (ws = tempWorkspace(FILES)));
  afterEach(async () => {
    await server?.close();
    server = undefined;
    ws.cleanup();
  });

  it("native (the default): the system prompt, then the request's tools JSON", async () => {
    const result = await preview('--model', 'qwen2.5-coder:7b');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^What the agent sends first under native tool calls; model qwen2\.5-coder:7b, qwen guidance; \d+ tools offered: .*read_file/);
    const { prompt, tools, json } = sections(result.stdout);
    assert.match(prompt, /^You are CodeWiki's agent, helping a developer with the workspace "/);
    assert.match(prompt, /README\.md \(7 bytes\)/, 'the workspace layout is in the prompt');
    assert.match(
      prompt,
      /Use the tools before answering questions about this workspace: do not guess file contents or names\. Keep arguments to the documented parameters/,
      'the qwen guidance applies',
    );
    assert.doesNotMatch(prompt, /TOOL_DEFINITION/);
    assert.match(tools, /^The request's "tools" field:\n\[/);
    const readFile = json!.find((tool) => tool.function.name === 'read_file');
    assert.equal(readFile?.type, 'function');
  });

  it('--protocol text: the <<<[TOOL_DEFINITION]>>> blocks in the prompt, and no tools JSON', async () => {
    const result = await preview('--protocol', 'text');
    assert.equal(result.code, 0, result.stderr);
    const { prompt, tools, json } = sections(result.stdout);
    assert.match(prompt, /<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」read_file「末」/);
    assert.match(prompt, /<<<\[TOOL_REQUEST\]>>>/);
    assert.doesNotMatch(prompt, /structured tool-calling interface/);
    assert.equal(json, undefined);
    assert.doesNotMatch(result.stdout, /"type": "function"/);
    assert.match(tools, /^No "tools" field is sent under the text protocol: the tools are described inside the system prompt above/);
  });

  it('toggling tools off changes the preview: --tools keeps only those, --no-tools offers none, --exclude-agents drops a sub-agent', async () => {
    const all = (JSON.parse((await preview('--json')).stdout) as PromptPreview).toolNames;
    assert.ok(all.includes('read_file') && all.includes('codebase_investigator'), all.join(','));

    const only = await preview('--tools', 'list_files,search_text');
    assert.equal(only.code, 0, only.stderr);
    assert.deepEqual(
      sections(only.stdout).json!.map((tool) => tool.function.name),
      ['list_files', 'search_text'],
    );
    assert.match(only.stdout, /2 tools offered: list_files, search_text\./);

    const text = await preview('--protocol', 'text', '--tools', 'list_files');
    assert.match(text.stdout, /tool_name: 「始」list_files「末」/);
    assert.doesNotMatch(text.stdout, /tool_name: 「始」read_file「末」/);

    const none = await preview('--no-tools');
    assert.match(sections(none.stdout).prompt, /No tools are available in this conversation/);
    assert.match(sections(none.stdout).tools, /^No "tools" field is sent: no tools are offered\./);

    const noSubagent = JSON.parse((await preview('--json', '--exclude-agents', 'codebase_investigator')).stdout) as PromptPreview;
    assert.deepEqual(
      noSubagent.toolNames,
      all.filter((name) => name !== 'codebase_investigator'),
    );
  });

  it('--json prints the PromptPreview object', async () => {
    const result = await preview('--json', '--protocol', 'text', '--model', 'llama3.2');
    assert.equal(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout) as PromptPreview;
    assert.deepEqual(Object.keys(parsed).sort(), ['family', 'protocol', 'systemPrompt', 'toolNames', 'tools']);
    assert.equal(parsed.protocol, 'text');
    assert.equal(parsed.family, 'llama');
    assert.deepEqual(parsed.tools, []);
  });

  for (const protocol of ['native', 'text'] as const) {
    it(`is exactly what "codewiki ask --tool-protocol ${protocol}" sends: the same system prompt and tools`, async () => {
      server = new OpenAiTestServer([{ text: 'Done.' }]);
      await server.start();
      const flags = ['--tools', 'read_file,list_files'];
      const shown = JSON.parse((await preview('--json', '--protocol', protocol, '--model', 'test-model', ...flags)).stdout) as PromptPreview;
      // The open file travels with the question, so the preview (which has no question) is the whole fixed prefix.
      const asked = await runCli([
        'ask',
        'What is a?',
        '--workspace',
        ws.root,
        '--base-url',
        server.url,
        '--model',
        'test-model',
        '--tool-protocol',
        protocol,
        '--open',
        'src/a.ts',
        ...flags,
      ]);
      assert.equal(asked.code, 0, asked.stderr);
      const [system] = server.messagesOf(0);
      assert.equal(system!.role, 'system');
      assert.equal(system!.content, shown.systemPrompt);
      assert.deepEqual(server.requests[0]!.body!.tools ?? [], shown.tools);
    });
  }

  it('usage errors exit 2 and name the flag; --help prints the usage', async () => {
    const bad = await preview('--protocol', 'xml');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--protocol xml: expected native, text/);
    const unknown = await preview('--tools', 'rm_rf');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--tools: unknown tool rm_rf/);
    const withoutPreview = await runCli(['tools', '--protocol', 'text', '--workspace', ws.root]);
    assert.equal(withoutPreview.code, 2);
    assert.match(withoutPreview.stderr, /--protocol only with --preview/);
    const help = await runCli(['tools', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^codewiki tools --preview \[--protocol native\|text\] \[--model M\]/m);
  });
});

const BLOCK = '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」add_numbers「末」\na: 「始」17「末」\nb: 「始」25「末」\n<<<[END_TOOL_REQUEST]>>>';
const NATIVE_CALL: Turn = { toolCalls: [{ name: 'add_numbers', arguments: { a: 17, b: 25 } }] };
const TEXT_CALL: Turn = { text: `Adding.\n${BLOCK}\n` };
const KEY = 'local-Zq8vN3+pXk7/Lw2Rt9=';
const KEY_FORMS = [KEY, encodeURIComponent(KEY)];

/** `codewiki probe`: the built CLI against the scripted server. */
describe('codewiki probe (the built CLI)', () => {
  let server: OpenAiTestServer;
  const start = async (script: Turn[] | ((request: RecordedRequest) => Turn)) => {
    server = new OpenAiTestServer(script);
    await server.start();
  };
  const env = () => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'test-model', CODEWIKI_MAX_RETRIES: '0' });
  const probe = (...args: string[]) => runCli(['probe', ...args], { env: env() });
  afterEach(async () => server?.close());

  it('both work: exit 0, one line per protocol, "native" suggested; progress on stderr', async () => {
    await start([NATIVE_CALL, TEXT_CALL]);
    const result = await probe();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Probe of test-model at http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    assert.match(result.stdout, /^native tool calls  ✓ works: The model called add_numbers with a native tool call/m);
    assert.match(result.stdout, /^text protocol      ✓ works: The model called add_numbers with a <<<\[TOOL_REQUEST\]>>> block/m);
    assert.match(result.stdout, /^ +call: add_numbers \{"a":17,"b":25\}$/m);
    assert.match(result.stdout, /^Suggested: "codewiki\.agent\.toolProtocol": "native" in the settings; --tool-protocol native for "codewiki ask"\.$/m);
    assert.doesNotMatch(result.stdout, /━━━/, 'no raw exchanges without --raw');
    assert.match(result.stderr, /… asking test-model to call a tool natively[^]*… asking test-model to call a tool by the text protocol/);
    assert.equal(server.requests.length, 2);
  });

  it('the server rejects tools (400): exit 0, only the text protocol works, "text" suggested', async () => {
    await start([{ status: 400, body: { error: { message: 'tools param requires --jinja flag' } } }, TEXT_CALL]);
    const result = await probe();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^native tool calls  ✗ rejected: The server refused the request with tools: .*400/m);
    assert.match(result.stdout, /^text protocol      ✓ works/m);
    assert.match(result.stdout, /Use toolProtocol "text"/);
    assert.match(result.stdout, /--tool-protocol text for "codewiki ask"/);
  });

  it("neither works: exit 1, the model's answers shown, nothing suggested", async () => {
    await start([{ text: '17 + 25 = 42' }, { text: 'It is 42.' }]);
    const result = await probe();
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^native tool calls  ✗ no call: .*\n +answer: 17 \+ 25 = 42$/m);
    assert.match(result.stdout, /^Neither native tool calls nor the text protocol worked/m);
    assert.match(result.stdout, /^Suggested: no tool protocol works with this model/m);
  });

  it('--raw shows every request and response, the API key removed even where the server echoes it', async () => {
    let answered = 0;
    await start((request) => (answered++ === 0 ? echoKeyInEveryForm(400)(request) : { text: `Key ${receivedKey(request)} ok.\n${BLOCK}` }));
    const result = await runCli(['probe', '--raw'], { env: { ...env(), CODEWIKI_API_KEY: KEY } });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      server.requests.every((request) => request.headers.authorization === `Bearer ${KEY}`),
      'the key was really sent',
    );
    assert.match(result.stdout, /^━━━ native tool calls: exchange 1 of 1 ━━━\n→ POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions$/m);
    assert.match(result.stdout, /^━━━ text protocol: exchange 1 of 1 ━━━$/m);
    assert.equal(result.stdout.match(/^ {2}authorization: Bearer \[redacted\]$/gm)?.length, 2);
    assert.match(
      result.stdout,
      /^ {4}"tools": \[\n {6}\{\n {8}"type": "function",\n {8}"function": \{\n {10}"name": "add_numbers"/m,
      'the request body, indented',
    );
    assert.match(result.stdout, /^← 400\n {2}\{\n {4}"error": \{\n {6}"message": "Key \[redacted\] rejected/m);
    assert.match(result.stdout, /^← 200\n {2}data: \{.*\n\n {2}data: /m, 'the streamed answer as sent, event by event');
    for (const [where, text] of Object.entries({ stdout: result.stdout, stderr: result.stderr })) {
      for (const form of KEY_FORMS) assert.ok(!text.includes(form), `the key (${form}) is in ${where}:\n${text}`);
    }
  });

  it('--json prints the whole result, exchanges included', async () => {
    await start([NATIVE_CALL, { text: 'no.' }]);
    const result = await probe('--json');
    assert.equal(result.code, 0, result.stderr);
    const parsed = JSON.parse(result.stdout) as ProbeResult;
    assert.equal(parsed.verdict, 'native');
    assert.equal(parsed.suggestion, 'native');
    assert.equal(parsed.model, 'test-model');
    assert.equal(parsed.native.exchanges[0]!.status, 200);
  });

  it('Ctrl-C while the model thinks: exit 130, the request is closed, and nothing more is sent', async () => {
    await start([{ stall: 'before-headers' }]);
    const running = startCli(['probe'], { env: env() });
    await server.waitForRequests(1, 10_000);
    running.child.kill('SIGINT');
    const result = await running.done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /■ cancelling…/);
    assert.equal(result.stdout, '', 'no verdict for a probe that did not finish');
    await server.waitForClose(0);
    assert.equal(server.requests.length, 1);
  });

  it('usage: no model is exit 2, a stray argument is exit 2, --help prints the usage', async () => {
    const noModel = await runCli(['probe']);
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /no model configured/);
    const stray = await runCli(['probe', 'extra', '--model', 'm']);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /unexpected argument "extra"; see "codewiki probe --help"/);
    const help = await runCli(['probe', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^codewiki probe \[--base-url URL\] \[--model M\] \[--raw\] \[--json\]/);
    const usage = await runCli(['--help']);
    assert.match(usage.stdout, /codewiki probe \[--base-url URL\]/);
    assert.match(usage.stdout, /codewiki tools --preview/);
  });
});
