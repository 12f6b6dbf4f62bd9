import { strict as assert } from 'node:assert';
import { findTextToolCalls } from '../../src/core/agent/textToolCalls';
import { AgentFixture } from './agentHarness';

const FILES = { 'src/frequency.ts': 'export function countWords() { return "FREQ_BODY"; }\n' };

/**
 * A real Qwen2.5-Coder 1.5B behind llama-server answered "Where is the word frequency computed?" with its tool
 * call written as a fenced JSON block in the text. Such calls are recognised, validated and run like native ones.
 */
describe('tool calls a model writes as text', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.close());

  it('with toolProtocol native, runs a fenced JSON call that names an offered tool, answers from it, and keeps the block out of the answer', async () => {
    const written = 'Let me look.\n\n```json\n{\n  "name": "read_file",\n  "arguments": { "path": "src/frequency.ts" }\n}\n```';
    fx = await new AgentFixture(FILES, [{ text: written }, { text: 'It is computed in src/frequency.ts.' }]).start();
    const result = await fx.ask('Where is the word frequency computed?', { toolProtocol: 'native' });

    assert.equal(result.stopReason, 'answered');
    assert.equal(result.answer, 'Let me look.\n\nIt is computed in src/frequency.ts.');
    const ended = fx.eventsOf('tool-call-end');
    assert.deepEqual(
      ended.map((e) => [e.tool, e.status]),
      [['read_file', 'ok']],
    );
    const followUp = fx.server.messagesOf(1);
    const assistant = followUp.find((m) => m.role === 'assistant')!;
    assert.deepEqual(
      assistant.tool_calls!.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
      [['read_file', { path: 'src/frequency.ts' }]],
    );
    const toolResult = followUp.find((m) => m.role === 'tool')!;
    assert.equal(toolResult.tool_call_id, assistant.tool_calls![0]!.id);
    assert.match(String(toolResult.content), /FREQ_BODY/);
    assert.ok(fx.eventsOf('warning').some((e) => /as text instead of calling natively/.test(e.message)));
  });

  it('validates a text call like a native one: bad arguments go back to the model as an error', async () => {
    fx = await new AgentFixture(FILES, [{ text: '<tool_call>{"name": "read_file", "arguments": {"file": 3}}</tool_call>' }, { text: 'Sorry.' }]).start();
    const result = await fx.ask('Read it');
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [['read_file', 'error']],
    );
    assert.equal(result.answer, 'Sorry.');
  });

  it('leaves JSON alone that names no offered tool, or is not a call at all', () => {
    const offered = new Set(['read_file']);
    assert.equal(findTextToolCalls('```json\n{"name": "delete_everything", "arguments": {}}\n```', offered, 1).calls.length, 0);
    assert.equal(findTextToolCalls('```json\n{"path": "src/a.ts"}\n```', offered, 1).calls.length, 0);
    assert.equal(findTextToolCalls('Use `read_file` to read it.', offered, 1).calls.length, 0);
    assert.deepEqual(
      findTextToolCalls('{"tool": "read_file", "args": "{\\"path\\": \\"a\\"}"}', offered, 1).calls.map((c) => c.args),
      [{ path: 'a' }],
    );
  });
});
