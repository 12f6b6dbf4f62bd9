import type { PromptCatalog } from '../actionPrompt/promptCatalog';
import type { CodewikiEngine } from '../codewikiEngine';
import { ToolRegistry } from '../tools/toolRegistry';

/**
 * What the editor knows besides the document itself: the tools (and prompts, which are tools too)
 * an action prompt may call, and the tools an agent definition's allow-list may name. Built from
 * the engine exactly as `codewiki validate` builds it, so the editor and the CLI agree.
 */
export interface AuthoringEnvironment {
  /** Built-in tools plus every loaded action prompt: what a step's `tool:` may name. */
  promptTools: ToolRegistry;
  /** The catalog's own checks for a prompt's text (the same `codewiki validate` runs): dialect, nested-call cycles and all. */
  prompts: Pick<PromptCatalog, 'validateText' | 'compileText'>;
  /** The agent's tools without the sub-agents: what an agent definition's `tools:` may name. */
  agentTools: ToolRegistry;
}

export function authoringEnvironmentOf(engine: Pick<CodewikiEngine, 'catalog' | 'agentRegistry' | 'agents'>): AuthoringEnvironment {
  const agentTools = new ToolRegistry();
  for (const entry of engine.agentRegistry.list()) if (!engine.agents.get(entry.metadata.name)) agentTools.register(entry.tool, entry.metadata);
  return { promptTools: engine.catalog.registry, prompts: engine.catalog, agentTools };
}
