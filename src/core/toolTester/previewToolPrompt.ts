import { startsFromIndex, usesCompactTools } from '../agent/compactToolSet';
import { agentGuidance } from '../agent/agentGuidance';
import { AgentToolSet, type OpenAiFunctionTool, type ToolExclusion } from '../agent/agentToolSet';
import { modelFamilyOf, type ModelAdapterSettings, type ModelFamily } from '../agent/modelAdapters';
import { buildSystemPrompt, folderPathsNote, workspaceName } from '../agent/systemPrompt';
import { instructionsSection, readProjectInstructions } from '../agent/projectInstructions';
import { workspaceOverview } from '../agent/workspaceOverview';
import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import { waitForIndex } from '../codebaseIndex/waitForIndex';
import type { ToolProtocol } from '../agent/textProtocol/toolProtocol';
import { withoutSubagents } from '../subagents/agentFilter';
import type { ToolRegistry } from '../tools/toolRegistry';
import { DEFAULT_TOOL_TOGGLES, type ToolToggles } from '../tools/toolToggles';
import type { Workspace } from '../workspace/workspace';

export interface PromptPreviewInput {
  /** The agent's registry (engine.agentRegistry). */
  registry: ToolRegistry;
  toggles?: ToolToggles;
  /** Which sub-agents are kept out (the agent's `subagentExclusion(settings.agents)`); none offered by default. */
  exclude?: ToolExclusion;
  modelName: string;
  adapter?: ModelAdapterSettings;
  protocol: ToolProtocol;
  /** For the workspace's name and the layout section; without it the prompt says "workspace" and has no layout. */
  workspace?: Workspace;
  /** The engine's code index: its repo map is the workspace section, as in the agent; waited for when it is still building. */
  codeIndex?: CodeIndex;
}

export interface PromptPreview {
  protocol: ToolProtocol;
  /** The model family whose guidance is applied (`codewiki.agent.modelAdapters` may force one). */
  family: ModelFamily;
  /** The first message of every agent run, exactly as the agent builds it. */
  systemPrompt: string;
  /** The request's `tools` field: the definitions under native calls, nothing under the text protocol (the tools are in the prompt). */
  tools: OpenAiFunctionTool[];
  /** The tools offered, in order. */
  toolNames: string[];
}

/**
 * What the model is told when the agent starts a run now: the system prompt and the `tools` payload,
 * built by the agent's own builders (AgentToolSet, buildSystemPrompt, agentGuidance) so the preview
 * cannot drift from what is really sent. The question and history that follow are the user's.
 */
export async function previewToolPrompt(input: PromptPreviewInput): Promise<PromptPreview> {
  const tools = AgentToolSet.create(input.registry, input.toggles ?? DEFAULT_TOOL_TOGGLES, input.exclude ?? withoutSubagents, {
    compact: usesCompactTools(input.modelName, input.adapter?.toolSet, startsFromIndex(input.codeIndex)),
  });
  const withTools = tools.size > 0;
  if (withTools && input.codeIndex) await waitForIndex(input.codeIndex);
  const overview = withTools ? await workspaceOverview(input.workspace, input.codeIndex, input.modelName) : {};
  const systemPrompt = buildSystemPrompt({
    workspaceName: input.workspace ? workspaceName(input.workspace) : 'workspace',
    layout: overview.layout,
    repoMap: overview.repoMap,
    tools: withTools ? tools.names : [],
    guidance: agentGuidance(input.modelName, input.adapter, input.protocol, tools.definitions),
    instructions: input.workspace ? instructionsSection(await readProjectInstructions(input.workspace)) : undefined,
    folders: folderPathsNote(input.workspace),
  });
  return {
    protocol: input.protocol,
    family: input.adapter?.family ?? modelFamilyOf(input.modelName),
    systemPrompt,
    tools: input.protocol === 'native' ? [...tools.definitions] : [],
    toolNames: tools.names,
  };
}
