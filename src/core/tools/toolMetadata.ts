import type { StructuredToolInterface } from '@langchain/core/tools';

/**
 * What a tool may do. The autonomous agent mode (roadmap) asks for approval by kind,
 * so every tool declares one even though action prompts run them without asking.
 */
export type ToolKind = 'read' | 'write' | 'execute' | 'think';

export type ToolCategory = 'file' | 'search' | 'llm' | 'prompt' | 'custom';

export interface ToolMetadata {
  name: string;
  displayName: string;
  description: string;
  category: ToolCategory;
  kind: ToolKind;
  /** Per-call deadline; a step's own `timeout` overrides it. */
  timeoutMs: number;
  /** Roadmap: per-tool toggles in the tool registry UI. */
  enabledByDefault?: boolean;
}

export interface RegisteredTool {
  tool: StructuredToolInterface;
  metadata: ToolMetadata;
}
