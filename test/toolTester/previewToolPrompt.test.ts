import { strict as assert } from 'node:assert';
import { previewToolPrompt } from '../../src/core/toolTester';
import { onlyTools, NO_TOOLS } from '../../src/core/tools/toolToggles';
import { testerWorkspace } from './toolTesterFixture';

describe('tool tester: prompt preview', () => {
  let fixture: Awaited<ReturnType<typeof testerWorkspace>>;
  before(async () => (fixture = await testerWorkspace()));
  after(() => fixture.cleanup());

  it('native: the tools payload holds the offered tools with their JSON Schemas; the prompt keeps the structured-calls guidance', async () => {
    const preview = await previewToolPrompt({
      registry: fixture.engine.agentRegistry,
      modelName: 'llama-3.2-3b',
      protocol: 'native',
      workspace: fixture.engine.workspace,
    });
    const names = preview.tools.map((tool) => tool.function.name);
    assert.ok(names.includes('read_file') && names.includes('list_files'), names.join(','));
    const readFile = preview.tools.find((tool) => tool.function.name === 'read_file')!;
    assert.equal((readFile.function.parameters as { type: string }).type, 'object');
    assert.equal(preview.family, 'llama');
    assert.match(preview.systemPrompt, /Call tools only through the structured tool-calling interface/);
    assert.match(preview.systemPrompt, /README\.md/, 'the workspace layout is in the prompt');
    assert.doesNotMatch(preview.systemPrompt, /TOOL_DEFINITION/);
  });

  it('text: no tools payload; the definitions and request format are in the prompt, without the structured-calls sentence', async () => {
    const preview = await previewToolPrompt({
      registry: fixture.engine.agentRegistry,
      modelName: 'qwen2.5-coder',
      protocol: 'text',
      workspace: fixture.engine.workspace,
    });
    assert.deepEqual(preview.tools, []);
    assert.match(preview.systemPrompt, /<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」read_file「末」/);
    assert.match(preview.systemPrompt, /<<<\[TOOL_REQUEST\]>>>/);
    assert.doesNotMatch(preview.systemPrompt, /structured tool-calling interface/);
  });

  it('follows the toggles: a tool turned off leaves the payload and the text definitions; all off leaves no tools', async () => {
    const only = await previewToolPrompt({ registry: fixture.engine.agentRegistry, toggles: onlyTools(['list_files']), modelName: 'm', protocol: 'text' });
    assert.deepEqual(only.toolNames, ['list_files']);
    assert.doesNotMatch(only.systemPrompt, /tool_name: 「始」read_file「末」/);
    assert.match(only.systemPrompt, /tool_name: 「始」list_files「末」/);
    const none = await previewToolPrompt({ registry: fixture.engine.agentRegistry, toggles: NO_TOOLS, modelName: 'm', protocol: 'native' });
    assert.deepEqual(none.tools, []);
    assert.match(none.systemPrompt, /No tools are available in this conversation/);
  });

  it("applies the user's model adapter", async () => {
    const preview = await previewToolPrompt({
      registry: fixture.engine.agentRegistry,
      modelName: 'whatever',
      adapter: { family: 'llama', guidance: { llama: 'ADAPTER SAYS HI.' } },
      protocol: 'native',
    });
    assert.equal(preview.family, 'llama');
    assert.match(preview.systemPrompt, /ADAPTER SAYS HI\./);
  });
});
