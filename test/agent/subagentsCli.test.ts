import { strict as assert } from 'node:assert';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer, type Turn } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const FILES = {
  'src/a.ts': 'export const a = "A_BODY";\n',
  '.codewiki/agents/helper.yaml':
    'name: helper\ndescription: Helps\ninputs:\n  - name: task\n    type: string\n    description: The task\nsystem: You help.\ntools: [read_file]\n',
  '.codewiki/prompts/reader.yaml':
    'title: Reader\nagent_callable: true\ninput_variables:\n  - name: path\n    type: path\ntool_chain:\n  - tool: read_file\n    input: { path: "{path}" }\n    output_variable: body\noutput: "{body}"\n',
};

describe('sub-agents in the CLI (the built CLI as a child process)', () => {
  let server: OpenAiTestServer | undefined;
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace(FILES)));
  afterEach(async () => {
    await server?.close();
    server = undefined;
    ws.cleanup();
  });

  async function start(turns: Turn[]): Promise<OpenAiTestServer> {
    server = new OpenAiTestServer(turns);
    await server.start();
    return server;
  }
  const ask = (url: string, ...args: string[]) => runCli(['ask', ...args, '--workspace', ws.root, '--base-url', url, '--model', 'test-model']);

  it('codewiki tools lists the sub-agents and agent-callable prompts from the registry', async () => {
    const result = await runCli(['tools', '--json', '--workspace', ws.root]);
    assert.equal(result.code, 0, result.stderr);
    const tools = JSON.parse(result.stdout) as Array<{
      name: string;
      kind: string;
      agentCallable: boolean;
      agent: string;
      parameters: { required?: string[] };
    }>;
    for (const name of ['codebase_investigator', 'helper']) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.deepEqual([tool.kind, tool.agentCallable, tool.agent], ['think', true, 'on']);
    }
    assert.deepEqual(tools.find((t) => t.name === 'codebase_investigator')!.parameters.required, ['question']);
    assert.equal(tools.find((t) => t.name === 'reader')!.agentCallable, true);
  });

  it("codewiki ask offers the sub-agents; the answer on stdout is the parent's alone", async () => {
    const srv = await start([
      { toolCalls: [{ id: 'call_parent', name: 'codebase_investigator', arguments: { question: 'What is a?' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
      { text: 'SUB-AGENT REPORT: a is A_BODY' },
      { text: 'a is "A_BODY".' },
    ]);
    const result = await ask(srv.url, 'What is a?');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'a is "A_BODY".\n');
    const offered = srv.requests[0]!.body!.tools!.map((t) => t.function.name);
    assert.ok(offered.includes('codebase_investigator') && offered.includes('helper') && offered.includes('reader'), offered.join(', '));
    assert.match(result.stderr, /^✓ codebase_investigator question="What is a\?"/m);
    assert.doesNotMatch(result.stderr, /^✓ read_file/m, "the sub-agent's own calls are not top-level progress lines");
  });

  it("--verbose says each of the sub-agent's model calls under the call that started it, with its prompt tokens", async () => {
    const usage = (prompt: number, cached: number) => ({ prompt_tokens: prompt, completion_tokens: 5, cached_tokens: cached });
    const srv = await start([
      { toolCalls: [{ id: 'call_parent', name: 'codebase_investigator', arguments: { question: 'What is a?' } }], usage: usage(2_000, 1_900) },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }], usage: usage(1_438, 0) },
      { text: 'SUB-AGENT REPORT: a is A_BODY', usage: usage(1_500, 1_430) },
      { text: 'a is "A_BODY".', usage: usage(2_100, 2_000) },
    ]);
    const result = await ask(srv.url, 'What is a?', '--verbose');
    assert.equal(result.code, 0, result.stderr);
    const calls = result.stderr.split('\n').filter((line) => /model call \d/.test(line));
    assert.deepEqual(
      calls.map((line) => /^(\S+ )?.*?model call (\d): ([\d,]+) prompt tokens \(([\d,]+) cached\)/.exec(line.trim())?.slice(1)),
      [
        ['· ', '1', '2,000', '1,900'],
        ['↳ ', '1', '1,438', '0'],
        ['↳ ', '2', '1,500', '1,430'],
        ['· ', '2', '2,100', '2,000'],
      ],
      result.stderr,
    );
    assert.ok(
      calls.filter((line) => line.includes('↳')).every((line) => line.startsWith('  ↳ codebase_investigator: model call')),
      calls.join('\n'),
    );
  });

  it('--agents and --exclude-agents filter them; unknown names are usage errors', async () => {
    const srv = await start([{ text: 'one' }, { text: 'two' }]);
    assert.equal((await ask(srv.url, 'q', '--agents', 'helper')).code, 0);
    assert.equal((await ask(srv.url, 'q', '--exclude-agents', 'helper,codebase_investigator')).code, 0);
    const offered = (i: number) => srv.requests[i]!.body!.tools!.map((t) => t.function.name);
    assert.ok(offered(0).includes('helper') && !offered(0).includes('codebase_investigator'));
    assert.ok(!offered(1).includes('helper') && !offered(1).includes('codebase_investigator'));
    const bad = await ask(srv.url, 'q', '--agents', 'nobody');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--agents: unknown sub-agent nobody; known: codebase_investigator, helper/);
  });
});
