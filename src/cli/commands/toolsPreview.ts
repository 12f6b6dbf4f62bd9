import type { ToolProtocol } from '../../core/agent/textProtocol/toolProtocol';
import { subagentExclusion } from '../../core/subagents/agentFilter';
import { previewToolPrompt, type PromptPreview } from '../../core/toolTester';
import { EXIT } from '../cliErrors';
import { agentFilterFrom, togglesFrom, toolProtocolFrom } from './agentFlags';
import { loadEngine } from './loadEngine';

export interface PreviewFlags {
  workspace?: string;
  protocol?: string;
  model?: string;
  tools?: string;
  noTools: boolean;
  agents?: string;
  excludeAgents?: string;
  json: boolean;
}

/**
 * `codewiki tools --preview`: the system prompt and the `tools` payload `codewiki ask` would send now.
 * The registry, the `--tools`/`--agents` flags and the model's family are read exactly as `ask` reads
 * them (agentFlags.ts), and the text comes from the agent's own builders (core/toolTester), so what
 * is printed is what goes over the wire.
 */
export async function toolsPreview(
  flags: PreviewFlags,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const protocol = (toolProtocolFrom(flags.protocol, '--protocol', ['native', 'text']) ?? 'native') as ToolProtocol;
  const engine = await loadEngine(flags.workspace);
  for (const warning of engine.warnings) io.stderr.write(`! ${warning}\n`);
  const toggles = togglesFrom(flags.tools, flags.noTools, engine.agentRegistry.names());
  const agents = agentFilterFrom(
    flags.agents,
    flags.excludeAgents,
    engine.agents.definitions().map((definition) => definition.name),
  );
  // The CLI has no model-adapter setting: like `ask`, the family follows the model's name.
  const modelName = flags.model ?? env.CODEWIKI_MODEL ?? '';
  const preview = await previewToolPrompt({
    registry: engine.agentRegistry,
    toggles,
    exclude: subagentExclusion(agents),
    modelName,
    protocol,
    workspace: engine.workspace,
    codeIndex: engine.codeIndex,
  });
  io.stdout.write(flags.json ? `${JSON.stringify(preview, null, 2)}\n` : formatPreview(preview, modelName));
  return EXIT.ok;
}

export function formatPreview(preview: PromptPreview, modelName: string): string {
  const how = preview.protocol === 'native' ? 'native tool calls' : 'the text tool protocol';
  const model = modelName ? `model ${modelName}` : 'no model named (--model or CODEWIKI_MODEL)';
  const offered = preview.toolNames.length
    ? `${preview.toolNames.length} tool${preview.toolNames.length === 1 ? '' : 's'} offered: ${preview.toolNames.join(', ')}`
    : 'no tools offered';
  return [
    `What the agent sends first under ${how}; ${model}, ${preview.family} guidance; ${offered}.`,
    'The question and the conversation follow this system prompt.',
    '',
    '━━━ system prompt ━━━',
    preview.systemPrompt,
    '',
    '━━━ tools ━━━',
    toolsSection(preview),
    '',
  ].join('\n');
}

function toolsSection(preview: PromptPreview): string {
  if (preview.protocol === 'text') {
    return 'No "tools" field is sent under the text protocol: the tools are described inside the system prompt above (the <<<[TOOL_DEFINITION]>>> blocks), and the model writes its calls as <<<[TOOL_REQUEST]>>> blocks.';
  }
  if (!preview.tools.length) return 'No "tools" field is sent: no tools are offered.';
  return `The request's "tools" field:\n${JSON.stringify(preview.tools, null, 2)}`;
}
