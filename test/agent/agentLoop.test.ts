import { strict as assert } from 'node:assert';
import { AgentFixture, toolText } from './agentHarness';

const FILES = {
  'README.md': '# Demo\n',
  'src/a.ts': 'export const a = "A_BODY";\n',
  'src/b.ts': 'export const b = "B_BODY";\n',
};

describe('agent loop over the real ChatOpenAI client and a scripted server', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.close());

  it('sends the tools as JSON Schema, answers every call with a role "tool" message carrying its id, and streams the answer', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ id: 'call_read_a', name: 'read_file', arguments: { path: 'src/a.ts' } }] },
      { text: 'a is "A_BODY".' },
    ]).start();
    const result = await fx.ask('What is a?');

    assert.equal(result.stopReason, 'answered');
    assert.equal(result.answer, 'a is "A_BODY".');
    assert.equal(
      fx
        .eventsOf('token')
        .map((e) => e.text)
        .join(''),
      result.answer,
    );
    assert.equal(fx.server.requests.length, 2);

    const first = fx.server.requests[0]!.body!;
    const names = first.tools!.map((t) => t.function.name).sort();
    assert.deepEqual(names, [
      'edit_file',
      'find_symbol',
      'get_file_summaries',
      'get_files_content_by_list',
      'list_files',
      'read_file',
      'repo_map',
      'run_command',
      'search_code',
      'search_text',
      'write_file',
    ]);
    const readFile = first.tools!.find((t) => t.function.name === 'read_file')!;
    assert.equal(readFile.type, 'function');
    const parameters = readFile.function.parameters as { type: string; properties: Record<string, { type: string }>; required: string[] };
    assert.equal(parameters.type, 'object');
    assert.equal(parameters.properties.path!.type, 'string');
    assert.equal(parameters.properties.start_line!.type, 'integer');
    assert.deepEqual(parameters.required, ['path']);
    assert.equal(first.tool_choice, undefined, 'the model chooses unless a tool is mentioned');
    assert.ok(!first.tools!.some((t) => /llm_tool/.test(t.function.name)), 'LLM-helper tools are not agent-callable');

    const system = fx.server.messagesOf(0)[0]!;
    assert.equal(system.role, 'system');
    assert.match(
      toolText(system.content),
      /Layout of the workspace \(file names only; read or search them with the tools\):\n\.\/\n {2}README\.md \(7 bytes\)\n {2}src\/\n {4}a\.ts/,
      'two levels of the layout are in the prompt without the model asking',
    );

    const second = fx.server.messagesOf(1);
    const assistant = second.find((m) => m.role === 'assistant')!;
    assert.deepEqual(
      assistant.tool_calls!.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
      [['call_read_a', 'read_file', { path: 'src/a.ts' }]],
    );
    const [toolMessage] = fx.toolMessages(1);
    assert.equal(toolMessage!.tool_call_id, 'call_read_a');
    assert.match(toolText(toolMessage!.content), /A_BODY/);
    assert.deepEqual(
      second.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool'],
    );
  });

  it('builds the tool schemas once: every request of a run carries the identical definitions', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ name: 'list_files', arguments: {} }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: 'done' },
    ]).start();
    await fx.ask('look around');
    const [a, b, c] = fx.server.requests.map((r) => JSON.stringify(r.body!.tools));
    assert.equal(a, b);
    assert.equal(b, c);
  });

  it('mentions force their tools with tool_choice, one per turn, in order', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ name: 'search_text', arguments: { query: 'A_BODY' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
      { text: 'found it' },
    ]).start();
    const result = await fx.ask('where is A_BODY?', {}, { mentions: ['@search_text', 'read_file', 'no_such_tool'] });
    assert.equal(result.answer, 'found it');
    assert.deepEqual(
      fx.server.requests.map((r) => r.body!.tool_choice),
      [{ type: 'function', function: { name: 'search_text' } }, { type: 'function', function: { name: 'read_file' } }, undefined],
    );
    assert.ok(fx.eventsOf('warning').some((w) => /@no_such_tool was not used: Unknown tool/.test(w.message)));
  });

  it('runs the read calls of one turn concurrently and returns their results in call order', async () => {
    fx = await new AgentFixture(FILES, [
      {
        toolCalls: [
          { id: 'p1', name: 'probe_read', arguments: { id: '1', ms: 80 } },
          { id: 'p2', name: 'probe_read', arguments: { id: '2', ms: 10 } },
          { id: 'p3', name: 'probe_read', arguments: { id: '3', ms: 40 } },
        ],
      },
      { text: 'ok' },
    ]).start();
    fx.addProbeTools();
    await fx.ask('probe');
    assert.equal(fx.probe.peak, 3, 'all three reads ran at once');
    assert.deepEqual(
      fx.toolMessages(1).map((m) => [m.tool_call_id, toolText(m.content)]),
      [
        ['p1', 'probe_read 1 done'],
        ['p2', 'probe_read 2 done'],
        ['p3', 'probe_read 3 done'],
      ],
    );
  });

  describe('bad calls go back to the model as error results and the loop continues', () => {
    const cases: Array<{ name: string; call: { name: string; arguments: string | Record<string, unknown> }; expect: RegExp }> = [
      {
        name: 'arguments that are not JSON',
        call: { name: 'read_file', arguments: '{"path": "src/a.ts"' },
        expect: /not valid JSON.*You sent: \{"path": "src\/a\.ts"/s,
      },
      {
        name: 'arguments that fail the schema',
        call: { name: 'read_file', arguments: { path: 42, start_line: 0 } },
        expect:
          /do not match the parameters of read_file:\n✖ Invalid input: expected string, received number\n {2}→ at path\n✖ Too small: expected number to be >=1\n {2}→ at start_line/,
      },
      {
        name: 'an unknown tool',
        call: { name: 'delete_everything', arguments: {} },
        expect: /Unknown tool "delete_everything"\. Available tools: .*read_file/,
      },
      {
        name: 'a tool that is not agent-callable',
        call: { name: 'summarize_llm_tool', arguments: { text: 'x' } },
        expect: /Tool "summarize_llm_tool" is disabled: it is not available to the agent/,
      },
      { name: 'null arguments', call: { name: 'read_file', arguments: 'null' }, expect: /The arguments were null/ },
    ];
    for (const { name, call, expect } of cases) {
      it(name, async () => {
        fx = await new AgentFixture(FILES, [{ toolCalls: [{ id: 'bad', ...call }] }, { text: 'recovered' }]).start();
        const result = await fx.ask('go');
        assert.equal(result.stopReason, 'answered');
        assert.equal(result.answer, 'recovered');
        const [message] = fx.toolMessages(1);
        assert.equal(message!.tool_call_id, 'bad');
        assert.match(toolText(message!.content), /^Error: /);
        assert.match(toolText(message!.content), expect);
        const end = fx.eventsOf('tool-call-end')[0]!;
        assert.equal(end.status, 'error');
      });
    }

    it('a tool the user turned off', async () => {
      fx = await new AgentFixture(FILES, [{ toolCalls: [{ id: 'off', name: 'search_text', arguments: { query: 'x' } }] }, { text: 'fine' }]).start();
      const result = await fx.ask('go', { toggles: { enabled: true, perTool: { search_text: false }, defaultForNewTools: true } });
      assert.equal(result.answer, 'fine');
      assert.ok(!fx.server.requests[0]!.body!.tools!.some((t) => t.function.name === 'search_text'), 'a disabled tool is not offered');
      assert.match(toolText(fx.toolMessages(1)[0]!.content), /^Error: Tool "search_text" is disabled: it is turned off in the tool settings/);
    });
  });

  it('stops at the iteration cap with one last call without tools, and the answer says it was cut short', async () => {
    fx = await new AgentFixture(FILES).start();
    let n = 0;
    fx.server.respondWith((request) =>
      request.body!.tools ? { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts', start_line: ++n } }] } : { text: 'Best guess: A_BODY.' },
    );
    const result = await fx.ask('loop forever', { caps: { maxIterations: 3 } });
    assert.equal(result.stopReason, 'max-iterations');
    assert.equal(fx.server.requests.length, 4);
    const last = fx.server.requests[3]!.body!;
    assert.equal(last.tools, undefined, 'the final call offers no tools');
    assert.match(toolText(last.messages!.at(-1)!.content), /Do not call any tools/);
    assert.match(result.answer, /^Best guess: A_BODY\.\n\n_\(Cut short: the agent reached its limit of 3 tool-calling iterations/);
    assert.equal(result.iterations, 4);
  });

  it('stops when the same call with the same arguments comes a third time', async () => {
    fx = await new AgentFixture(FILES).start();
    fx.server.respondWith((request) =>
      request.body!.tools ? { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] } : { text: 'It is A_BODY.' },
    );
    const result = await fx.ask('repeat');
    assert.equal(result.stopReason, 'repeated-call');
    assert.equal(fx.eventsOf('tool-call-end').filter((e) => e.status === 'ok').length, 2, 'the tool ran twice, not three times');
    assert.equal(fx.eventsOf('tool-call-end').at(-1)!.status, 'skipped');
    const final = fx.server.lastRequest().body!;
    assert.equal(final.tools, undefined);
    assert.match(
      toolText(final.messages!.find((m) => m.role === 'tool' && /not run/.test(toolText(m.content)))!.content),
      /asked for again with the same arguments/,
    );
    assert.match(result.answer, /Cut short: the model asked for the same call \(read_file with the same arguments\) a third time/);
  });

  it('stops at the token budget', async () => {
    fx = await new AgentFixture(FILES).start();
    fx.server.respondWith((request) =>
      request.body!.tools
        ? { toolCalls: [{ name: 'list_files', arguments: { depth: request.index + 1 } }], usage: { prompt_tokens: 600, completion_tokens: 10 } }
        : { text: 'short answer' },
    );
    const result = await fx.ask('spend', { caps: { tokenBudget: 1000 } });
    assert.equal(result.stopReason, 'token-budget');
    assert.equal(fx.server.requests.filter((r) => r.body!.tools).length, 2);
    assert.match(result.answer, /used up its budget of 1,000 tokens/);
  });

  it('stops at the wall clock, closing the stalled request, and still asks for a final answer without tools', async () => {
    fx = await new AgentFixture(FILES, [{ stall: 'before-headers' }, { text: 'From what I know: A.' }]).start();
    const result = await fx.ask('slow', { caps: { wallClockMs: 300 } });
    assert.equal(result.stopReason, 'wall-clock');
    await fx.server.waitForClose(0);
    assert.equal(fx.server.requests[1]!.body!.tools, undefined);
    assert.match(result.answer, /^From what I know: A\.\n\n_\(Cut short: the run reached its time limit of 300 ms/);
  });

  it('when the wall clock stops running tools, the calls that finished are still reported to the model', async () => {
    fx = await new AgentFixture(FILES, [
      {
        toolCalls: [
          { id: 'fast', name: 'probe_read', arguments: { id: 'fast', ms: 1 } },
          { id: 'slow', name: 'probe_read', arguments: { id: 'slow', ms: 5_000 } },
        ],
      },
      { text: 'partial' },
    ]).start();
    fx.addProbeTools();
    const result = await fx.ask('probe', { caps: { wallClockMs: 400 } });
    assert.equal(result.stopReason, 'wall-clock');
    assert.deepEqual(
      fx.toolMessages(1).map((m) => [m.tool_call_id, toolText(m.content)]),
      [
        ['fast', 'probe_read fast done'],
        ['slow', 'not finished: the run was stopped before this call completed'],
      ],
    );
  });

  it('says so when the answer was cut off (finish_reason "length")', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'The answer is', finishReason: 'length' }]).start();
    const result = await fx.ask('long');
    assert.equal(result.stopReason, 'answered');
    assert.match(result.answer, /^The answer is\n\n_\(The answer was cut off: the model reached its output token limit\.\)_$/);
    assert.ok(fx.eventsOf('warning').some((w) => /cut off/.test(w.message)));
  });

  it('does not run a tool call whose arguments were cut off by the output limit', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ id: 'cut', name: 'write_file', arguments: '{"path": "new.ts", "content": "export const x' }], finishReason: 'length' },
      { text: 'I could not finish.' },
    ]).start();
    const result = await fx.ask('write');
    assert.equal(result.answer, 'I could not finish.');
    assert.match(toolText(fx.toolMessages(1)[0]!.content), /not valid JSON/);
    assert.ok(fx.eventsOf('warning').some((w) => /output token limit in the middle of its tool calls/.test(w.message)));
  });

  it('keeps <think> blocks out of the answer and reports them as reasoning', async () => {
    fx = await new AgentFixture(FILES, [{ chunks: ['<thi', 'nk>The user wants', ' a.</th', 'ink>Answer: ', 'A.'] }]).start();
    const result = await fx.ask('think');
    assert.equal(result.answer, 'Answer: A.');
    assert.equal(
      fx
        .eventsOf('reasoning')
        .map((e) => e.text)
        .join(''),
      'The user wants a.',
    );
  });

  it('with toolProtocol native, falls back visibly to plan-then-answer when the server rejects tools with a 400', async () => {
    fx = await new AgentFixture(FILES, [
      { status: 400, body: { error: { message: 'tools are not supported by this model', type: 'invalid_request_error' } } },
      { text: '{"calls": [{"tool": "read_file", "args": {"path": "src/b.ts"}}]}' },
      { text: 'b is B_BODY.' },
    ]).start();
    const result = await fx.ask('What is b?', { toolProtocol: 'native' });
    assert.ok(result.usedFallback);
    assert.equal(result.stopReason, 'answered');
    assert.match(result.answer, /^_\(This model does not support tool calls.*\)_\n\nb is B_BODY\.$/);
    assert.match(fx.eventsOf('fallback')[0]!.reason, /rejected the tool definitions.*400/);
    const [rejected, plan, answer] = fx.server.requests;
    assert.ok(rejected!.body!.tools);
    assert.equal(plan!.body!.tools, undefined);
    assert.match(plan!.promptText, /Reply with one JSON object/);
    assert.equal(answer!.body!.tools, undefined);
    assert.match(answer!.promptText, /B_BODY/, 'the planned tool ran and its output reached the answer');
  });

  it('a user Stop ends the run as cancelled', async () => {
    fx = await new AgentFixture(FILES, [{ stall: 'before-headers' }]).start();
    const controller = new AbortController();
    const running = fx.ask('stall', {}, { signal: controller.signal });
    await fx.server.waitForRequests(1);
    controller.abort();
    const result = await running;
    assert.equal(result.stopReason, 'cancelled');
    assert.equal(fx.eventsOf('done')[0]!.stopReason, 'cancelled');
  });

  it('a model failure ends the run as failed, in plain words', async () => {
    fx = await new AgentFixture(FILES, [{ status: 401, body: { error: { message: 'bad key' } } }]).start();
    const result = await fx.ask('hi');
    assert.equal(result.stopReason, 'failed');
    assert.match(result.error!, /401 from http:\/\/127\.0\.0\.1:\d+\/v1: check the API key/);
  });

  it('a sub-agent run carries its parent call id on every event, and still logs itself', async () => {
    fx = await new AgentFixture(FILES, [{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'nested answer' }]).start();
    const result = await fx.ask('inner', {}, { parentCallId: 'call_outer_7' });
    assert.ok(fx.events.length > 5);
    assert.ok(fx.events.every((event) => event.parentCallId === 'call_outer_7'));
    assert.equal(result.log.iterations.length, 2);
    assert.equal(result.log.answer, 'nested answer');
  });

  it('names the open file with the question, not in the system prompt, and returns the turn as history for the next one', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'first' }, { text: 'second' }]).start();
    const first = await fx.ask('one', {}, { openFile: 'src/b.ts' });
    const [system, question] = fx.server.messagesOf(0);
    assert.doesNotMatch(toolText(system!.content), /src\/b\.ts/, 'switching files must not change the cached prefix');
    assert.equal(toolText(question!.content), '(The user has this file open in the editor: src/b.ts)\n\none');
    await fx.ask('two', {}, { history: first.messages });
    assert.equal(toolText(fx.server.messagesOf(1)[0]!.content), toolText(system!.content), 'the system prompt is the same without an open file');
    assert.deepEqual(
      fx.server
        .messagesOf(1)
        .map((m) => [m.role, toolText(m.content)])
        .slice(1),
      [
        ['user', '(The user has this file open in the editor: src/b.ts)\n\none'],
        ['assistant', 'first'],
        ['user', 'two'],
      ],
      'the history is what was sent, so the next request only appends',
    );
  });
});
