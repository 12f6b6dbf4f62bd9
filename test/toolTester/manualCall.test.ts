import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolApprovals } from '../../src/core/agent/approvalGate';
import { AutoApprovalPolicy } from '../../src/core/agent/autoApprovalPolicy';
import { parseManualCall, runManualCall } from '../../src/core/toolTester';
import { onlyTools } from '../../src/core/tools/toolToggles';
import { ScriptedGate } from '../agent/agentHarness';
import { testerWorkspace } from './toolTesterFixture';

const BLOCK = '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」README.md「末」\n<<<[END_TOOL_REQUEST]>>>';

describe('tool tester: manual calls', () => {
  let fixture: Awaited<ReturnType<typeof testerWorkspace>>;
  beforeEach(async () => (fixture = await testerWorkspace()));
  afterEach(() => fixture.cleanup());

  it('reads a text-protocol block: the tool, valid arguments, no approval for a read tool', async () => {
    const parsed = await parseManualCall(BLOCK, { tools: fixture.tools() });
    assert.equal(parsed.form, 'text-protocol');
    assert.equal(parsed.calls.length, 1);
    const [check] = parsed.calls;
    assert.equal(check!.call.name, 'read_file');
    assert.deepEqual(check!.call.args, { path: 'README.md' });
    assert.equal(check!.valid, true);
    assert.equal(check!.tool?.kind, 'read');
    assert.equal(check!.approval.needed, false);
  });

  it('reads a JSON call and an OpenAI tool_calls value', async () => {
    const json = await parseManualCall('```json\n{"name": "list_files", "arguments": {"path": "."}}\n```', { tools: fixture.tools() });
    assert.equal(json.form, 'json');
    assert.deepEqual(json.calls[0]!.call.args, { path: '.' });
    const native = await parseManualCall(
      JSON.stringify({ tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/app.ts"}' } }] }),
      { tools: fixture.tools() },
    );
    assert.equal(native.form, 'native');
    assert.equal(native.calls[0]!.call.id, 'call_9');
    assert.equal(native.calls[0]!.valid, true);
  });

  it('reports schema failures, disabled tools, malformed arguments and text with no call', async () => {
    const invalid = await parseManualCall('{"name": "read_file", "arguments": {"path": 42}}', { tools: fixture.tools() });
    assert.equal(invalid.calls[0]!.valid, false);
    assert.match(invalid.calls[0]!.problem!, /do not match the parameters of read_file/);
    const disabled = await parseManualCall(BLOCK, { tools: fixture.tools(onlyTools(['list_files'])), knownTools: fixture.engine.agentRegistry.names() });
    assert.match(disabled.calls[0]!.problem!, /read_file" is disabled/);
    const malformed = await parseManualCall(
      JSON.stringify({ tool_calls: [{ type: 'function', function: { name: 'read_file', arguments: '{"path": "READ' } }] }),
      { tools: fixture.tools() },
    );
    assert.match(malformed.calls[0]!.problem!, /not valid JSON/);
    const nothing = await parseManualCall('just some prose', { tools: fixture.tools() });
    assert.equal(nothing.calls.length, 0);
    assert.match(nothing.error!, /No tool call found/);
  });

  it('says which approval a write or command needs under the current settings', async () => {
    const write = '{"name": "write_file", "arguments": {"path": "new.txt", "content": "hi"}}';
    const asks = await parseManualCall(write, { tools: fixture.tools() });
    assert.equal(asks.calls[0]!.approval.needed, true);
    const auto = await parseManualCall(write, { tools: fixture.tools(), policy: AutoApprovalPolicy.fromUserSettings({ kinds: ['write'] }) });
    assert.equal(auto.calls[0]!.approval.needed, false);
    assert.equal(auto.calls[0]!.approval.autoApproved, true);
    const compound = await parseManualCall('{"name": "run_command", "arguments": {"command": "ls; rm -rf x"}}', {
      tools: fixture.tools(),
      policy: AutoApprovalPolicy.fromUserSettings({ commands: ['ls'] }),
    });
    assert.equal(compound.calls[0]!.approval.needed, true);
    assert.match(compound.calls[0]!.approval.why, /chains/);
  });

  it('runs a read call through the agent runner: raw result and duration', async () => {
    const tools = fixture.tools();
    const { calls } = await parseManualCall(BLOCK, { tools });
    const before = performance.now();
    const result = await runManualCall(calls[0]!.call, { tools, approvals: new ToolApprovals(new ScriptedGate()) });
    const elapsed = performance.now() - before;
    assert.equal(result.status, 'ok');
    assert.match(result.content, /hello from the readme/);
    const end = result.events.find((e) => e.type === 'tool-call-end') as Extract<(typeof result.events)[number], { type: 'tool-call-end' }> | undefined;
    assert.equal(result.durationMs, end?.durationMs, "the duration shown is the call's own, as the chat would show it");
    assert.ok(result.durationMs > 0 && result.durationMs <= elapsed, `a duration in milliseconds within the call: ${result.durationMs} of ${elapsed}`);
  });

  it('a write call still asks: denied leaves the disk alone, allowed writes the file', async () => {
    const tools = fixture.tools();
    const { calls } = await parseManualCall('{"name": "write_file", "arguments": {"path": "new.txt", "content": "made by the tester"}}', { tools });
    const denying = new ScriptedGate([{ decision: 'deny', reason: 'just testing' }]);
    const denied = await runManualCall(calls[0]!.call, { tools, approvals: new ToolApprovals(denying) });
    assert.equal(denied.status, 'denied');
    assert.equal(denying.requests.length, 1);
    assert.throws(() => readFileSync(join(fixture.root, 'new.txt')));
    const allowed = await runManualCall(calls[0]!.call, { tools, approvals: new ToolApprovals(new ScriptedGate([{ decision: 'allow-once' }])) });
    assert.equal(allowed.status, 'ok');
    assert.equal(readFileSync(join(fixture.root, 'new.txt'), 'utf8'), 'made by the tester');
  });
});
