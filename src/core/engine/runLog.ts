import type { TokenUsage } from '../llm/usage';
import type { PromptMessage } from '../llm/promptMessages';
import type { RunStatus, StepStatus } from './executorEvents';

/**
 * The JSON record of one run (the shape of seed 002's execution log, extended). It is what
 * `--log` writes, what the extension links as "Open run log", and what tests read back.
 */
export interface RunLog {
  version: 1;
  run_id: string;
  prompt_id: string;
  prompt_title: string;
  prompt_file: string;
  dry_run: boolean;
  status: RunStatus | 'running';
  started_at: string;
  completed_at?: string;
  duration_ms?: number;
  inputs: Record<string, unknown>;
  models: { main?: string; tool?: string };
  steps: StepLog[];
  final?: FinalLog;
  output?: unknown;
  total_tokens: TokenUsage;
  /** The final prompt's input budget (estimated tokens), and the server's context window when it reported one. */
  input_budget?: { tokens: number; server_context?: number };
  warnings: string[];
  error?: string;
}

export interface StepLog {
  id: string;
  title: string;
  tool: string;
  status: StepStatus;
  started_at?: string;
  duration_ms?: number;
  attempts: number;
  tokens: TokenUsage;
  input?: unknown;
  output_preview?: string;
  /** for_each steps: how many items there were. */
  items?: number;
  /** for_each steps: the items that failed (the pool stops at the first; items not started are not listed). */
  item_errors?: Array<{ item: number; error: string }>;
  /**
   * for_each steps: every item's outcome, in order, so each tool call the step made is accounted for; `not_started`
   * when the pool stopped (a failed item, a cancelled run) before reaching it.
   */
  item_results?: ItemResult[];
  error?: string;
  /**
   * The fallback steps that ran after this step failed, each with its own input (the step's `input`
   * stays the original one) and outcome.
   */
  fallback?: Array<{
    id: string;
    tool: string;
    status: 'running' | 'success' | 'failed' | 'cancelled';
    input?: unknown;
    output_preview?: string;
    error?: string;
  }>;
  /** Set when the step failed and its fallback produced the output instead. */
  recovered_by?: 'fallback';
  skipped_reason?: string;
  /** Warnings about this step (also in the run's `warnings`): a cut-off answer, a failed for_each item, … */
  warnings?: string[];
  /** Prompts a dry run would have sent from this step. */
  prompts?: Array<{ model: string; messages: PromptMessage[] }>;
}

export interface ItemResult {
  item: number;
  status: 'success' | 'failed' | 'cancelled' | 'not_started';
  error?: string;
}

export interface FinalLog {
  model: string;
  messages: PromptMessage[];
  output: string;
  tokens: TokenUsage;
  duration_ms?: number;
  sent: boolean;
}
