import type { PromptMessage } from '../llm/promptMessages';
import type { TokenUsage } from '../llm/usage';

export type StepStatus = 'pending' | 'running' | 'success' | 'skipped' | 'failed' | 'cancelled';
export type RunStatus = 'success' | 'failed' | 'cancelled';

export interface StepPlan {
  id: string;
  title: string;
  tool: string;
  /** Ids of the steps it waits for. */
  dependsOn: string[];
}

/**
 * Everything the UI and the CLI learn about a run. Events for different steps interleave when
 * steps run in parallel; each carries its step id.
 */
export type ExecutorEvent =
  | { type: 'chain-start'; runId: string; promptId: string; title: string; steps: StepPlan[]; dryRun: boolean }
  | { type: 'tool-start'; stepId: string; tool: string; input: unknown; attempt: number; item?: number }
  | { type: 'tool-retry'; stepId: string; attempt: number; error: string; delayMs: number }
  | { type: 'tool-end'; stepId: string; tool: string; outputPreview: string; durationMs: number; tokens: TokenUsage; attempts: number }
  | { type: 'tool-error'; stepId: string; tool: string; error: string; durationMs: number; attempts: number; handling: 'abort' | 'continue' | 'fallback' }
  | { type: 'step-skipped'; stepId: string; reason: string }
  | { type: 'step-cancelled'; stepId: string }
  /** `via`: for a nested prompt's preview, the calling step and prompt, e.g. "summarize-file (from step map)". */
  | { type: 'prompt-preview'; stepId?: string; tool: string; model: string; messages: PromptMessage[]; via?: string }
  | { type: 'llm-start'; model: string; messages: PromptMessage[] }
  | { type: 'llm-token'; text: string }
  /** The final answer's thinking (`<think>` blocks, `reasoning_content`): never part of the answer. */
  | { type: 'llm-reasoning'; text: string }
  | { type: 'llm-end'; text: string; tokens: TokenUsage; durationMs: number }
  | { type: 'warning'; message: string; stepId?: string }
  | { type: 'chain-end'; status: RunStatus; durationMs: number; tokens: TokenUsage; error?: string };

export type ExecutorEventListener = (event: ExecutorEvent) => void;
