import { createHash } from 'node:crypto';
import type { PromptCacheSlots } from '../llm/promptCacheSlots';
import type { AgentLoop } from './agentLoop';

/** What a warm-up found and did, for a log line: tokens read back from disk, time to compute the rest, tokens saved. */
export interface PrefixWarmth {
  restoredTokens?: number;
  warmMs: number;
  savedTokens?: number;
}

/**
 * The saved prompt cache of one workspace, model and agent variant (AgentLoop.prefixVariant: `ask --no-index` and
 * agent mode with the index send different prompts). One file each, rewritten in place, so edits to the workspace
 * never pile files up. A file name, not a path: llama-server resolves it in its `--slot-save-path` and accepts
 * nothing else.
 */
export function prefixSlotFile(workspaceRoot: string, modelName: string, variant: string): string {
  return `codewiki-prefix-${createHash('sha256').update(`${workspaceRoot}\u0000${modelName}\u0000${variant}`).digest('hex').slice(0, 16)}.bin`;
}

/**
 * Gets the agent's fixed prefix (system prompt and tools) into llama-server's prompt cache before the user asks:
 * read back from disk when an earlier session saved it, computed otherwise (thousands of tokens: about a minute
 * for the 1.5B default on 2 cores), then saved for the next restart. Only for llama-server: on any other server a
 * warm-up would be a paid request for nothing, so nothing is sent and undefined comes back.
 */
export async function warmAgentPrefix(
  agent: AgentLoop,
  slots: PromptCacheSlots | undefined,
  workspaceRoot: string,
  modelName: string,
  signal?: AbortSignal,
): Promise<PrefixWarmth | undefined> {
  if (!slots || !(await slots.available())) return undefined;
  const file = prefixSlotFile(workspaceRoot, modelName, agent.prefixVariant());
  const restored = await slots.restore(file, signal);
  const { ms } = await agent.warmPrefix(signal);
  const saved = await slots.save(file, signal);
  return { restoredTokens: restored?.tokens, warmMs: ms, savedTokens: saved?.tokens };
}
