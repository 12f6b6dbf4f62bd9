import type { StructuredToolInterface } from '@langchain/core/tools';

/**
 * What a tool may do. The agent (src/core/agent) runs read and think tools freely and stops
 * write and execute tools for approval, so every tool declares one.
 */
export type ToolKind = 'read' | 'write' | 'execute' | 'think';

export type ToolCategory = 'file' | 'search' | 'shell' | 'llm' | 'prompt' | 'custom';

export interface ToolMetadata {
  name: string;
  displayName: string;
  description: string;
  category: ToolCategory;
  kind: ToolKind;
  /** Per-call deadline; a step's own `timeout` overrides it. */
  timeoutMs: number;
  /**
   * Whether the agent may be offered this tool at all. Only tools with flat, model-friendly
   * arguments opt in; LLM-helper tools and nested action prompts stay workflow-only. Whether an
   * agent-callable tool is offered in a given run is the user's toggles (see toolToggles.ts).
   */
  agentCallable: boolean;
}

export interface RegisteredTool {
  tool: StructuredToolInterface;
  metadata: ToolMetadata;
}

/**
 * A tool that an agent's tool set leaves out unless whoever builds the set lets it in by name: sub-agents, which
 * the user's agents setting enables. `optInReason` is what the model is told when it calls one that was left out.
 */
export interface OptInTool {
  readonly optInReason: string;
}

export function optInReasonOf(tool: StructuredToolInterface): string | undefined {
  const reason = (tool as Partial<OptInTool>).optInReason;
  return typeof reason === 'string' ? reason : undefined;
}
