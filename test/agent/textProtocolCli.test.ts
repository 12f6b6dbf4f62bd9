import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRunLog } from '../../src/core/agent';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer, type Turn } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const FILES = { 'src/a.ts': 'export const a = "A_BODY";\n' };
const READ_A = 'I will read it.\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」src/a.ts「末」\n<<<[END_TOOL_REQUEST]>>>\n';

/** `codewiki ask --tool-protocol` end to end: the built CLI as a child process against the scripted server. */
describe('codewiki ask --tool-protocol (the built CLI)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const start = async (turns: Turn[]) => {
    server = new OpenAiTestServer(turns);
    await server.start();
  };
  const ask = (...args: string[]) => runCli(['ask', ...args, '--workspace', ws.root, '--base-url', server.url, '--model', 'test-model']);

  beforeEach(() => {
    ws = tempWorkspace(FILES);
  });
  afterEach(async () => {
    await server?.close();
    ws.cleanup();
  });

  it('text: the tools go in the prompt, the request block runs, and stdout shows the answer without the block', async () => {
    await start([{ text: READ_A }, { text: 'a is "A_BODY".' }]);
    const logFile = join(ws.root, 'log.json');
    const result = await ask('What is a?', '--tool-protocol', 'text', '--log', logFile);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'I will read it.\n\na is "A_BODY".\n');
    assert.match(result.stderr, /^✓ read_file path="src\/a\.ts" \(\d+ ms\)$/m);
    assert.equal(server.requests[0]!.body!.tools, undefined);
    assert.match(server.requests[0]!.promptText, /<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」read_file「末」/);
    assert.match(server.requests[1]!.promptText, /<<<\[TOOL_RESULT\]>>>[^]*A_BODY/);
    const log = JSON.parse(readFileSync(logFile, 'utf8')) as AgentRunLog;
    assert.deepEqual(
      log.iterations[0]!.toolCalls.map((c) => [c.tool, c.args, c.status]),
      [['read_file', { path: 'src/a.ts' }, 'ok']],
    );
  });

  it('auto (the default): a 400 on tools switches to text, and stderr says so', async () => {
    await start([
      { status: 400, body: { error: { message: 'tools param requires --jinja flag', type: 'invalid_request_error' } } },
      { text: READ_A },
      { text: 'a is "A_BODY".' },
    ]);
    const result = await ask('What is a?');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'I will read it.\n\na is "A_BODY".\n');
    assert.match(result.stderr, /^! switched to the text tool protocol: the server rejected the tool definitions \(.*400.*\)/m);
    assert.ok(server.requests[0]!.body!.tools);
    assert.equal(server.requests[1]!.body!.tools, undefined);
    assert.equal(server.requests.length, 3);
  });

  it('native: request blocks are not run, and a bad value is a usage error', async () => {
    // The block stays text, so the answer names a.ts unread: the one grounding question follows, and a plain answer ends it.
    await start([{ text: READ_A }, { text: 'a is exported from src/a.ts.' }]);
    const result = await ask('What is a?', '--tool-protocol', 'native');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(server.requests[0]!.body!.tools);
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[1]!.body!.tools, 'still native: tools sent, no switch to text');
    assert.doesNotMatch(result.stderr, /read_file/, 'no tool ran');
    const bad = await ask('x', '--tool-protocol', 'xml');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--tool-protocol xml: expected auto, native, text/);
  });
});

describe('codewiki tools: parameters that are not flat (seed 004)', () => {
  it('warns about an agent tool whose parameters are arrays, and not about flat ones', async () => {
    const ws = tempWorkspace({
      '.codewiki/agents/batch_reader.yaml': [
        'name: batch_reader',
        'description: Reads several files and summarises them.',
        'inputs:',
        '  - name: files',
        '    type: string[]',
        '    description: The files to read.',
        'system: Read {files} and summarise them.',
        'tools: [read_file]',
        '',
      ].join('\n'),
    });
    try {
      const result = await runCli(['tools', '--workspace', ws.root]);
      assert.equal(result.code, 0, result.stderr);
      const section = (name: string) => result.stdout.slice(result.stdout.indexOf(`${name}  [`)).split(/\n(?=\S)/)[0]!;
      assert.match(section('batch_reader'), /! parameters not flat: files \(array or object\); the text tool protocol asks for them as JSON/);
      assert.doesNotMatch(section('read_file'), /not flat/);
      assert.doesNotMatch(section('get_files_content_by_list'), /not flat/, 'an array that may also be a string is flat enough');
    } finally {
      ws.cleanup();
    }
  });
});
