import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolProtocolMemory } from '../../src/core/agent';
import { AgentFixture } from './agentHarness';

const FILES = { 'src/a.ts': 'export const a = "A_BODY";\n', 'src/b.ts': 'export const b = "B_BODY";\n' };
const request = (tool: string, fields: Record<string, string>) =>
  `<<<[TOOL_REQUEST]>>>\ntool_name: 「始」${tool}「末」\n${Object.entries(fields)
    .map(([k, v]) => `${k}: 「始」${v}「末」\n`)
    .join('')}<<<[END_TOOL_REQUEST]>>>`;
const REJECT_TOOLS = { status: 400, body: { error: { message: "'tools' is not supported", type: 'invalid_request_error' } } } as const;

/** The text tool protocol through the real ChatOpenAI client and the scripted server. */
describe('agent loop: the text tool protocol', () => {
  let fx: AgentFixture;
  let dir: string | undefined;
  afterEach(async () => {
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('describes the tools in the system prompt, runs request blocks, and sends results back as a user message', async () => {
    fx = await new AgentFixture(FILES, [
      {
        chunks: [
          'Reading both.\n<<<[TOOL_',
          'REQUEST]>>>\ntool_name: 「始」read_',
          `file「末」\npath: 「始」src/a.ts「末」\n<<<[END_TOOL_REQ`,
          `UEST]>>>\n${request('read_file', { path: 'src/b.ts', start_line: '1' })}`,
        ],
      },
      { text: 'a is A_BODY and b is B_BODY.' },
    ]).start();
    const result = await fx.ask('What are a and b?', { toolProtocol: 'text' });

    assert.equal(result.stopReason, 'answered');
    assert.equal(result.answer, 'Reading both.\n\na is A_BODY and b is B_BODY.');
    const tokens = fx
      .eventsOf('token')
      .map((e) => e.text)
      .join('');
    assert.doesNotMatch(tokens, /TOOL_REQUEST|「始」/, 'no request block reached the displayed answer');
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [
        ['read_file', 'ok'],
        ['read_file', 'ok'],
      ],
    );
    assert.deepEqual(
      fx.eventsOf('tool-call-start').map((e) => e.args),
      [{ path: 'src/a.ts' }, { path: 'src/b.ts', start_line: 1 }],
    );

    const [first, second] = fx.server.requests;
    assert.equal(first!.body!.tools, undefined, 'no native tools were sent');
    const system = String(first!.body!.messages![0]!.content);
    assert.match(system, /<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」read_file「末」/);
    assert.match(system, /- path \(string, required\)/);
    assert.doesNotMatch(system, /never write a tool call as text/);
    const replay = fx.server.messagesOf(1);
    const assistant = replay.find((m) => m.role === 'assistant')!;
    assert.match(String(assistant.content), /<<<\[TOOL_REQUEST\]>>>/, 'the model sees its own request blocks');
    assert.equal(assistant.tool_calls, undefined);
    assert.equal(replay.filter((m) => m.role === 'tool').length, 0);
    const results = String(replay.at(-1)!.content);
    assert.equal(replay.at(-1)!.role, 'user');
    assert.match(
      results,
      /^<<<\[TOOL_RESULT\]>>>\ntool_name: 「始」read_file「末」\nstatus: 「始」success「末」\nresult: 「始」\n[^]*A_BODY[^]*<<<\[END_TOOL_RESULT\]>>>\n\n<<<\[TOOL_RESULT\]>>>[^]*B_BODY/,
    );
    assert.equal(second!.body!.tools, undefined);
  });

  it('a result the model invents after its request block is not replayed to it: only the real result is', async () => {
    fx = await new AgentFixture(FILES, [
      {
        text: `${request('read_file', { path: 'src/a.ts' })}\n<<<[TOOL_RESULT]>>>\nresult: 「始」export const a = "INVENTED"「末」\n<<<[END_TOOL_RESULT]>>>\nSo a is INVENTED.`,
      },
      { text: 'a is A_BODY.' },
    ]).start();
    const result = await fx.ask('What is a?', { toolProtocol: 'text' });
    assert.equal(result.answer, 'a is A_BODY.');
    const replay = fx.server.messagesOf(1);
    const assistant = String(replay.find((m) => m.role === 'assistant')!.content);
    assert.match(assistant, /<<<\[END_TOOL_REQUEST\]>>>$/, "the model's turn ends with its request");
    assert.doesNotMatch(JSON.stringify(replay), /INVENTED/);
    assert.match(String(replay.at(-1)!.content), /A_BODY/);
  });

  it('feeds malformed blocks, unknown tools and schema failures back as error results', async () => {
    fx = await new AgentFixture(FILES, [
      { text: `${request('read_file', { file: 'x' })}\n${request('delete_all', {})}\n<<<[TOOL_REQUEST]>>>\nread src/a.ts\n<<<[END_TOOL_REQUEST]>>>` },
      { text: 'Sorry, I could not read it.' },
    ]).start();
    const result = await fx.ask('Read a', { toolProtocol: 'text' });
    assert.equal(result.answer, 'Sorry, I could not read it.');
    assert.deepEqual(
      fx
        .eventsOf('tool-call-end')
        .map((e) => [e.tool, e.status])
        .sort(),
      [
        ['', 'error'],
        ['delete_all', 'error'],
        ['read_file', 'error'],
      ],
    ); // they end in any order
    const results = String(fx.server.messagesOf(1).at(-1)!.content);
    assert.match(results, /status: 「始」error「末」\nresult: 「始」\nError: The arguments do not match the parameters of read_file/);
    assert.match(results, /Unknown tool "delete_all"\. Available tools: /);
    assert.match(results, /could not be read: no "name: 「始」value「末」" lines/);
  });

  it('a model that repeats the same broken block hits the repeated-call cap and still answers', async () => {
    const broken = request('read_file', { path: 'missing.ts' });
    fx = await new AgentFixture(FILES, [{ text: broken }, { text: broken }, { text: broken }, { text: 'I could not find it.' }]).start();
    const result = await fx.ask('Read missing', { toolProtocol: 'text' });
    assert.equal(result.stopReason, 'repeated-call');
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => e.status),
      ['error', 'error', 'skipped'],
    );
    assert.match(result.answer, /I could not find it\.\n\n_\(Cut short: the model asked for the same call \(read_file with the same arguments\) a third time/);
    const last = fx.server.lastRequest();
    assert.match(last.promptText, /Do not call any tools/);
    assert.equal(last.body!.tools, undefined);
  });

  it('broken blocks that differ each time end at the iteration cap', async () => {
    fx = await new AgentFixture(
      FILES,
      [1, 2, 3].map((n) => ({ text: `<<<[TOOL_REQUEST]>>>\nnonsense ${n}\n<<<[END_TOOL_REQUEST]>>>` })).concat([{ text: 'Best effort.' }]),
    ).start();
    const result = await fx.ask('loop', { toolProtocol: 'text', caps: { maxIterations: 3 } });
    assert.equal(result.stopReason, 'max-iterations');
    assert.equal(fx.eventsOf('tool-call-end').length, 3);
    assert.match(result.answer, /^Best effort\./);
  });

  it('auto: a 400 on tools switches to text for the rest of the conversation, says so, and remembers it per model and endpoint', async () => {
    dir = mkdtempSync(join(tmpdir(), 'codewiki-protocols-'));
    const file = join(dir, 'tool-protocols.json');
    const memory = new ToolProtocolMemory(file);
    fx = await new AgentFixture(FILES, [
      REJECT_TOOLS,
      { text: request('read_file', { path: 'src/a.ts' }) },
      { text: 'a is A_BODY.' },
      { text: 'Still text.' },
    ]).start();
    const result = await fx.ask('What is a?', { protocolMemory: memory });

    assert.equal(result.stopReason, 'answered');
    assert.equal(result.answer, 'a is A_BODY.');
    assert.equal(result.usedFallback, false);
    const [rejected, retried, answered] = fx.server.requests;
    assert.ok(rejected!.body!.tools, 'native first');
    assert.equal(retried!.body!.tools, undefined);
    assert.match(String(retried!.body!.messages![0]!.content), /<<<\[TOOL_DEFINITION\]>>>/);
    assert.match(answered!.promptText, /A_BODY/);
    const [notice] = fx.eventsOf('protocol-switch');
    assert.match(notice!.reason, /rejected the tool definitions.*400/);

    const saved = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { protocol: string }> };
    assert.deepEqual(
      Object.entries(saved.entries).map(([key, value]) => [key, value.protocol]),
      [[`${fx.server.url}#test-model`, 'text']],
    );

    // A later conversation in a new window (a new memory over the same file) starts with text: no more 400s.
    await fx.ask('again', { protocolMemory: new ToolProtocolMemory(file) }, { conversationId: 'conv-2', history: result.messages });
    const later = fx.server.lastRequest();
    assert.equal(later.body!.tools, undefined);
    assert.equal(later.body!.messages!.filter((m) => m.role === 'tool' || m.tool_calls).length, 0);
    assert.equal(fx.eventsOf('protocol-switch').length, 1, 'announced once, when it happened');
  });

  it('auto: llama-server\'s 500 "tools param requires --jinja flag" switches to text too; another 500 does not', async () => {
    fx = await new AgentFixture(FILES, [
      { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } },
      { text: request('read_file', { path: 'src/a.ts' }) },
      { text: 'a is A_BODY.' },
      { status: 500, body: { error: { code: 500, message: 'out of memory', type: 'server_error' } } },
    ]).start();
    const result = await fx.ask('What is a?');
    assert.equal(result.answer, 'a is A_BODY.');
    assert.match(fx.eventsOf('protocol-switch')[0]!.reason, /requires --jinja/);
    const failed = await fx.ask('again'); // a new agent without memory: native again
    assert.equal(failed.stopReason, 'failed');
    assert.equal(fx.eventsOf('protocol-switch').length, 1);
  });

  it('auto: a call the model writes as JSON text is run and the conversation moves to text; native stays native', async () => {
    const json = '```json\n{"tool": "read_file", "arguments": {"path": "src/b.ts"}}\n```';
    fx = await new AgentFixture(FILES, [{ text: json }, { text: 'b is B_BODY.' }]).start();
    const result = await fx.ask('What is b?');
    assert.equal(result.answer, 'b is B_BODY.');
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [['read_file', 'ok']],
    );
    assert.match(fx.eventsOf('protocol-switch')[0]!.reason, /wrote a tool call as text/);
    const next = fx.server.requests[1]!;
    assert.equal(next.body!.tools, undefined);
    assert.equal(next.body!.messages!.at(-1)!.role, 'user');
    assert.match(String(next.body!.messages!.at(-1)!.content), /<<<\[TOOL_RESULT\]>>>[^]*B_BODY/);
  });

  it('auto: a request block the model writes while native calls are on is run, coerced by the schema, kept out of the answer, and the conversation moves to text', async () => {
    const block =
      'Let me look.\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」src/b.ts「末」\nstart_line: 「始」1「末」\n<<<[END_TOOL_REQUEST]>>>';
    fx = await new AgentFixture(FILES, [{ text: block }, { text: 'b is B_BODY.' }]).start();
    const result = await fx.ask('What is b?');
    assert.equal(result.answer, 'Let me look.\n\nb is B_BODY.', 'the narration stays, the block does not');
    assert.ok(fx.server.requests[0]!.body!.tools, 'the first request was native');
    const [start] = fx.eventsOf('tool-call-start');
    assert.deepEqual(start!.args, { path: 'src/b.ts', start_line: 1 }, "the value was coerced to the schema's integer");
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [['read_file', 'ok']],
    );
    assert.match(fx.eventsOf('protocol-switch')[0]!.reason, /wrote a tool call as text/);
    assert.equal(fx.server.requests[1]!.body!.tools, undefined);
  });

  it("auto: a call written as an XML element is read with the schema's types and run", async () => {
    const xml = '<tools>\n<read_file path="src/b.ts" start_line="1" />\n</tools>';
    fx = await new AgentFixture(FILES, [{ text: xml }, { text: 'b is B_BODY.' }]).start();
    const result = await fx.ask('What is b?');
    assert.equal(result.answer, 'b is B_BODY.');
    assert.deepEqual(fx.eventsOf('tool-call-start')[0]!.args, { path: 'src/b.ts', start_line: 1 });
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [['read_file', 'ok']],
    );
  });
});
