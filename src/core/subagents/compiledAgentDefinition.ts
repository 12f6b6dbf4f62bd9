import type { Diagnostic } from '../yaml/diagnostics';
import type { PositionIndex } from '../yaml/yamlPositions';
import type { AgentInput } from './agentDefinitionSchema';

/** Where a definition came from: shipped with CodeWiki, or the workspace's `.codewiki/agents/` (trusted workspaces only). */
export type AgentSource = 'builtin' | 'workspace';

/** An agent definition that passed every load-time check. */
export interface CompiledAgentDefinition {
  /** The tool name. */
  name: string;
  description: string;
  inputs: AgentInput[];
  /** The system prompt template; `{input}` references were checked against `inputs`. */
  system: string;
  /** The allow-list: every name is an agent-callable tool that is not itself a sub-agent. */
  tools: string[];
  /** "main", "tool" or a model name; the main model when absent. */
  model?: string;
  maxIterations?: number;
  file: string;
  source: AgentSource;
  positions: PositionIndex;
  /** Problems that do not stop it (e.g. a zero-width space in the system prompt). */
  warnings: Diagnostic[];
}
