import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_AGENT_MODE_SETTINGS, type AgentModeSettings } from '../../src/core/session/agentModeSettings';
import { ToolTesterService, type ToolTesterDeps } from '../../src/core/toolTester/toolTesterService';
import { onlyTools } from '../../src/core/tools/toolToggles';
import { ScriptedGate } from '../agent/agentHarness';
import { OpenAiTestServer } from '../support/openaiServer';
import { testerWorkspace } from './toolTesterFixture';

const WRITE = '{"name": "write_file", "arguments": {"path": "made.txt", "content": "by hand"}}';
const KEY = 'tester-key-4f1c9b';

describe('tool tester: the service behind the panel', () => {
  let fixture: Awaited<ReturnType<typeof testerWorkspace>>;
  let settings: AgentModeSettings;
  let gate: ScriptedGate;
  let server: OpenAiTestServer | undefined;
  const service = (extra: Partial<ToolTesterDeps> = {}) =>
    new ToolTesterService({
      engine: async () => ({ engine: fixture.engine }),
      settings: () => settings,
      probeTarget: async () => ({ unavailable: 'no endpoint in this test' }),
      gate,
      ...extra,
    });

  beforeEach(async () => {
    fixture = await testerWorkspace();
    settings = { ...DEFAULT_AGENT_MODE_SETTINGS };
    gate = new ScriptedGate();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fixture.cleanup();
  });

  it('lists every tool with kind, category, agentCallable, its switch and JSON Schema, and both previews', async () => {
    const state = await service().state();
    const readFile = state.tools.find((tool) => tool.name === 'read_file')!;
    assert.equal(readFile.kind, 'read');
    assert.equal(readFile.agentCallable, true);
    assert.equal(readFile.enabled, true);
    assert.deepEqual((readFile.schema as { required?: string[] }).required, ['path']);
    const selector = state.tools.find((tool) => tool.name === 'file_selector_llm_tool')!;
    assert.equal(selector.agentCallable, false, 'workflow-only LLM helpers are listed, not offered');
    const [native, text] = state.previews;
    assert.equal(native!.protocol, 'native');
    assert.match(native!.toolsJson, /"name": "read_file"/);
    assert.equal(text!.toolsJson, '');
    assert.match(text!.systemPrompt, /tool_name: 「始」read_file「末」/);
  });

  it('the previews follow the toggles', async () => {
    settings = { ...settings, toggles: onlyTools(['list_files']) };
    const state = await service().state();
    assert.equal(state.tools.find((tool) => tool.name === 'read_file')!.enabled, false);
    assert.deepEqual(state.previews[0]!.toolNames, ['list_files']);
    assert.doesNotMatch(state.previews[1]!.systemPrompt, /tool_name: 「始」read_file「末」/);
  });

  it('says why there are no tools when the workspace has none to offer', async () => {
    const state = await service({ engine: async () => ({ unavailable: 'This workspace is in Restricted Mode.' }) }).state();
    assert.equal(state.unavailable, 'This workspace is in Restricted Mode.');
    assert.deepEqual(state.tools, []);
    await assert.rejects(service({ engine: async () => ({ unavailable: 'This workspace is in Restricted Mode.' }) }).parse(WRITE), /Restricted Mode/);
  });

  it('a write run by hand still asks: denied changes nothing, allowed writes the file', async () => {
    const parsed = await service().parse(WRITE);
    assert.equal(parsed.calls[0]!.approval.needed, true);
    gate = new ScriptedGate([{ decision: 'deny', reason: 'not now' }]);
    const denied = await service().run(WRITE, 0);
    assert.equal(denied.status, 'denied');
    assert.equal(existsSync(join(fixture.root, 'made.txt')), false);
    gate = new ScriptedGate([{ decision: 'allow-once' }]);
    const allowed = await service().run(WRITE, 0);
    assert.equal(allowed.status, 'ok');
    assert.equal(gate.requests[0]!.tool, 'write_file');
    assert.equal(readFileSync(join(fixture.root, 'made.txt'), 'utf8'), 'by hand');
  });

  it('probes the server natively and by the text protocol, with the raw exchanges and no key in them', async () => {
    server = new OpenAiTestServer([
      { status: 400, body: { error: { message: 'tools are not supported by this server' } } },
      { text: 'Sure.\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」add_numbers「末」\na: 「始」17「末」\nb: 「始」25「末」\n<<<[END_TOOL_REQUEST]>>>' },
    ]);
    const { url } = await server.start();
    const probe = await service({ probeTarget: async () => ({ baseURL: url, model: 'test-model', apiKey: KEY, maxRetries: 0 }) }).probe();
    assert.equal(probe.verdict, 'text');
    assert.equal(probe.suggestion, 'text');
    assert.equal(probe.attempts[0]!.outcome, 'rejected');
    assert.equal(probe.attempts[1]!.works, true);
    assert.ok(server.requests[0]!.body?.tools, 'the native half sent tools');
    assert.equal(server.requests[1]!.body?.tools, undefined, 'the text half sent none');
    const raw = probe.attempts.flatMap((attempt) => attempt.exchanges).join('\n');
    assert.match(raw, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.match(raw, /HTTP 400/);
    assert.match(raw, /add_numbers/);
    assert.equal(raw.includes(KEY), false, 'the key never reaches the page');
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`, 'the server did get the key');
  });

  it('a probe without an endpoint is a clear error', async () => {
    await assert.rejects(service().probe(), /no endpoint in this test/);
  });
});
