import { nonFlatParameters, type JsonSchema } from '../../core/agent/textProtocol/jsonSchemaTypes';
import { DEFAULT_TOOL_TOGGLES, describeAvailability, NO_TOOLS, onlyTools, toolAvailability } from '../../core/tools/toolToggles';
import { EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { loadEngine } from './loadEngine';

export const TOOLS_USAGE = `codewiki tools [--workspace DIR] [--json] [--tools a,b | --no-tools]
  tools, their JSON Schemas and whether the agent may call them`;

/**
 * `codewiki tools`: every tool with its metadata, the JSON Schema a model would be sent, whether the
 * agent may call it (`agentCallable`) and whether `codewiki ask` would offer it (`agent`: the toggle
 * state; `--tools a,b` and `--no-tools` show it as those flags would leave it).
 */
export async function toolsCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseCliArgs('tools', argv, {
    options: { workspace: { type: 'string', short: 'w' }, json: { type: 'boolean' }, tools: { type: 'string' }, 'no-tools': { type: 'boolean' } },
  });
  const engine = await loadEngine(values.workspace);
  const toggles = values['no-tools'] ? NO_TOOLS : values.tools !== undefined ? onlyTools(values.tools.split(',').map((n) => n.trim())) : DEFAULT_TOOL_TOGGLES;
  // Action-prompt tools first, then the agent-only write and execute tools.
  const listed = [
    ...engine.registry.list().map((entry) => ({ entry, registry: engine.registry, agentOnly: false })),
    ...engine.agentRegistry.list().filter((entry) => engine.registry.get(entry.metadata.name)?.tool !== entry.tool).map((entry) => ({ entry, registry: engine.agentRegistry, agentOnly: true })),
  ];
  const tools = listed.map(({ entry: { metadata }, registry, agentOnly }) => ({
    ...metadata,
    agent: describeAvailability(toolAvailability(metadata, toggles)),
    agentOnly,
    parameters: registry.jsonSchema(metadata.name),
  }));
  if (values.json) {
    io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const tool of tools) {
    const agent = tool.agentCallable ? `agent: ${tool.agent}${tool.agentOnly ? ', agent only' : ''}` : 'agent: not callable';
    io.stdout.write(`${tool.name}  [${tool.category}, ${tool.kind}, timeout ${tool.timeoutMs / 1000} s]  ${agent}\n  ${tool.description}\n`);
    // Seed 004: agent tools should take flat parameters; nested ones are hard for small models in the text protocol.
    const nested = tool.agentCallable ? nonFlatParameters(tool.parameters as JsonSchema) : [];
    if (nested.length) io.stdout.write(`  ! parameters not flat: ${nested.join(', ')} (array or object); the text tool protocol asks for them as JSON, which small models often get wrong. Prefer string, number and boolean parameters.\n`);
    io.stdout.write(`${JSON.stringify(tool.parameters, null, 2).replace(/^/gm, '  ')}\n\n`);
  }
  return EXIT.ok;
}
