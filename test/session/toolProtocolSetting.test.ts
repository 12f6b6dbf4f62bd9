import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolProtocolMemory } from '../../src/core/agent';
import { DEFAULT_AGENT_MODE_SETTINGS, readAgentModeSettings, type InspectedSetting } from '../../src/core/session/agentModeSettings';
import { AgentModeFixture } from './agentModeBuilders';

const inspector = (values: Record<string, InspectedSetting>) => (key: string) => values[key];

describe('codewiki.agent.toolProtocol', () => {
  it('is read from the user layer only, defaults to auto, and an invalid value is ignored with a note', () => {
    assert.equal(readAgentModeSettings(inspector({})).toolProtocol, 'auto');
    assert.equal(
      readAgentModeSettings(inspector({ 'agent.toolProtocol': { defaultValue: 'auto', globalValue: 'text', workspaceValue: 'native' } })).toolProtocol,
      'text',
    );
    assert.equal(readAgentModeSettings(inspector({ 'agent.toolProtocol': { defaultValue: 'auto', workspaceValue: 'native' } })).toolProtocol, 'auto');
    const bad = readAgentModeSettings(inspector({ 'agent.toolProtocol': { globalValue: 'xml' } }));
    assert.equal(bad.toolProtocol, 'auto');
    assert.match(bad.notes[0]!, /codewiki\.agent\.toolProtocol was ignored/);
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const property = manifest.contributes.configuration.properties['codewiki.agent.toolProtocol'];
    assert.deepEqual([property.scope, property.default, property.enum], ['application', 'auto', ['auto', 'native', 'text']]);
  });

  describe('in a chat session', () => {
    let fx: AgentModeFixture;
    afterEach(async () => fx?.close());

    it('auto: the switch to text is shown as a notice on the turn, kept in history, and saved per model and endpoint', async () => {
      fx = new AgentModeFixture({ 'src/app.ts': 'export const app = () => "APP_BODY";\n' });
      const file = join(fx.storage, 'tool-protocols.json');
      await fx.start({ toolProtocolMemory: new ToolProtocolMemory(file) });
      fx.settings = { ...DEFAULT_AGENT_MODE_SETTINGS, toolProtocol: 'auto' };
      fx.server.enqueue(
        { status: 400, body: { error: { message: 'tools are not supported', type: 'invalid_request_error' } } },
        { text: 'Reading.\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」src/app.ts「末」\n<<<[END_TOOL_REQUEST]>>>' },
        { text: 'app() returns APP_BODY.' },
      );
      await fx.session.sendAgent('What does app() return?');

      const notices = fx.of('agentTurn/warning').map((m) => m.message);
      assert.ok(
        notices.some((m) => /^Switched to the text tool protocol for this model: the server rejected the tool definitions/.test(m)),
        notices.join('\n'),
      );
      assert.doesNotMatch(
        fx
          .of('agentTurn/chunk')
          .map((m) => m.text)
          .join(''),
        /TOOL_REQUEST/,
      );
      const turn = await fx.lastTurn();
      assert.equal(turn.answer, 'Reading.\n\napp() returns APP_BODY.');
      assert.deepEqual(
        turn.toolCalls.map((c) => [c.tool, c.status]),
        [['read_file', 'ok']],
      );
      assert.ok(turn.warnings?.some((w) => /Switched to the text tool protocol/.test(w)));
      assert.ok(existsSync(file));
      assert.match(readFileSync(file, 'utf8'), /"protocol": "text"/);
    });
  });
});
