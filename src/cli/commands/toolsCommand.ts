import { nonFlatParameters, type JsonSchema } from '../../core/agent/textProtocol/jsonSchemaTypes';
import { DEFAULT_TOOL_TOGGLES, describeAvailability, NO_TOOLS, onlyTools, toolAvailability } from '../../core/tools/toolToggles';
import { CliError, EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { loadEngine } from './loadEngine';
import { toolsPreview } from './toolsPreview';

export const TOOLS_USAGE = `codewiki tools [--workspace DIR] [--json] [--tools a,b | --no-tools]
  tools, their JSON Schemas and whether the agent may call them
codewiki tools --preview [--protocol native|text] [--model M] [options]
  the system prompt and the "tools" payload "codewiki ask" would send now
  --protocol P         native (default): tools in the request's "tools" field; text: tools described
                       in the prompt as <<<[TOOL_DEFINITION]>>> blocks (ask's --tool-protocol text)
  --model M            the model whose family guidance applies (env CODEWIKI_MODEL)
  --tools a,b          offer only these tools; --no-tools offers none
  --agents a,b, --exclude-agents a,b   which sub-agents are offered (default: every one loaded)
  --workspace DIR      the workspace (default: the current directory)
  --json               the preview as JSON: protocol, family, systemPrompt, tools, toolNames`;

/** Flags that shape what the agent would be sent, which the plain listing has no use for. */
const PREVIEW_ONLY = ['protocol', 'model', 'agents', 'exclude-agents'] as const;

/**
 * `codewiki tools`: every tool with its metadata, the JSON Schema a model would be sent, whether the
 * agent may call it (`agentCallable`) and whether `codewiki ask` would offer it (`agent`: the toggle
 * state; `--tools a,b` and `--no-tools` show it as those flags would leave it). With `--preview`,
 * the prompt and payload the agent would send instead (toolsPreview.ts).
 */
export async function toolsCommand(argv: string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseCliArgs('tools', argv, {
    options: {
      workspace: { type: 'string', short: 'w' },
      json: { type: 'boolean' },
      tools: { type: 'string' },
      'no-tools': { type: 'boolean' },
      preview: { type: 'boolean' },
      protocol: { type: 'string' },
      model: { type: 'string' },
      agents: { type: 'string' },
      'exclude-agents': { type: 'string' },
    },
  });
  if (values.preview) {
    const { workspace, protocol, model, tools, agents } = values;
    return toolsPreview(
      { workspace, protocol, model, tools, noTools: values['no-tools'] ?? false, agents, excludeAgents: values['exclude-agents'], json: values.json ?? false },
      io,
      process.env,
    );
  }
  const previewOnly = PREVIEW_ONLY.filter((flag) => values[flag] !== undefined);
  if (previewOnly.length) throw new CliError(`${previewOnly.map((flag) => `--${flag}`).join(', ')} only with --preview; see "codewiki tools --help"`);
  const engine = await loadEngine(values.workspace);
  const toggles = values['no-tools'] ? NO_TOOLS : values.tools !== undefined ? onlyTools(values.tools.split(',').map((n) => n.trim())) : DEFAULT_TOOL_TOGGLES;
  // Action-prompt tools first, then the agent-only write and execute tools.
  const listed = [
    ...engine.registry.list().map((entry) => ({ entry, registry: engine.registry, agentOnly: false })),
    ...engine.agentRegistry
      .list()
      .filter((entry) => engine.registry.get(entry.metadata.name)?.tool !== entry.tool)
      .map((entry) => ({ entry, registry: engine.agentRegistry, agentOnly: true })),
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
    if (nested.length)
      io.stdout.write(
        `  ! parameters not flat: ${nested.join(', ')} (array or object); the text tool protocol asks for them as JSON, which small models often get wrong. Prefer string, number and boolean parameters.\n`,
      );
    io.stdout.write(`${JSON.stringify(tool.parameters, null, 2).replace(/^/gm, '  ')}\n\n`);
  }
  return EXIT.ok;
}
