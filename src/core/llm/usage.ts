import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { HandleLLMNewTokenCallbackFields, NewTokenIndices } from '@langchain/core/callbacks/base';
import type { LLMResult } from '@langchain/core/outputs';

/** Token counts as the server reported them. */
export interface TokenUsage {
  input: number;
  output: number;
  total: number;
  /** Of `input`, the tokens the server took from its prompt cache instead of computing them (when it says). */
  cached?: number;
}

export const ZERO_USAGE: Readonly<TokenUsage> = Object.freeze({ input: 0, output: 0, total: 0 });

export function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return { ...a };
  const sum: TokenUsage = { input: a.input + b.input, output: a.output + b.output, total: a.total + b.total };
  if (a.cached !== undefined || b.cached !== undefined) sum.cached = (a.cached ?? 0) + (b.cached ?? 0);
  return sum;
}

/** Undefined when the message carries no usage (e.g. the server did not report it), which is not the same as zero. */
export function usageFromMessage(message: unknown): TokenUsage | undefined {
  const metadata = (message as { usage_metadata?: unknown } | null | undefined)?.usage_metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const { input_tokens, output_tokens, total_tokens, input_token_details } = metadata as Record<string, unknown>;
  const usage = usageFromCounts(input_tokens, output_tokens, total_tokens);
  const cached = (input_token_details as { cache_read?: unknown } | undefined)?.cache_read;
  if (typeof cached === 'number' && Number.isFinite(cached) && cached >= 0) usage.cached = cached;
  return usage;
}

/** Usage from the counts a server reported (`prompt_tokens`, `completion_tokens`, `total_tokens`), whatever their shape. */
export function usageFromCounts(inputTokens: unknown, outputTokens: unknown, totalTokens: unknown): TokenUsage {
  const input = count(inputTokens);
  const output = count(outputTokens);
  return { input, output, total: typeof totalTokens === 'number' ? count(totalTokens) : input + output };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Counts every LLM call made under it. Passed as `callbacks: [collector]` in a RunnableConfig, LangChain
 * hands it down to nested runs, so a tool whose func calls `model.invoke(messages, config)` with the config it
 * received is counted too, which is how LLM-as-a-tool steps stay inside the token budget.
 */
export class UsageCollector extends BaseCallbackHandler {
  readonly name = 'UsageCollector';
  private totals: TokenUsage = { ...ZERO_USAGE };
  private calls = 0;
  /** Usage seen on a streamed chunk, per LLM run: preferred over the end result (see streamChat.ts for why). */
  private readonly streamedUsage = new Map<string, TokenUsage>();

  /** Usage summed over every completed LLM call so far. */
  get usage(): TokenUsage {
    return { ...this.totals };
  }

  get callCount(): number {
    return this.calls;
  }

  override handleLLMNewToken(
    _token: string,
    _idx: NewTokenIndices,
    runId: string,
    _parent?: string,
    _tags?: string[],
    fields?: HandleLLMNewTokenCallbackFields,
  ): void {
    const usage = usageFromMessage((fields?.chunk as { message?: unknown } | undefined)?.message);
    if (usage) this.streamedUsage.set(runId, usage);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    this.calls++;
    const streamed = this.streamedUsage.get(runId);
    this.streamedUsage.delete(runId);
    this.totals = addUsage(this.totals, streamed ?? usageOfResult(output));
  }

  override handleLLMError(_error: unknown, runId: string): void {
    // A stopped or failed stream may already have reported what it spent (rare: usage comes last).
    const streamed = this.streamedUsage.get(runId);
    this.streamedUsage.delete(runId);
    if (streamed) this.totals = addUsage(this.totals, streamed);
  }

  /** Usage of work that ran outside LangChain's callback tree, e.g. a nested action prompt's own run. */
  record(usage: TokenUsage): void {
    this.totals = addUsage(this.totals, usage);
  }
}

/** Per-message usage when present (chat models), otherwise the run's llmOutput.tokenUsage. */
function usageOfResult(output: LLMResult): TokenUsage | undefined {
  let fromMessages: TokenUsage | undefined;
  for (const generation of output.generations.flat()) {
    const usage = usageFromMessage((generation as { message?: unknown }).message);
    if (usage) fromMessages = addUsage(fromMessages ?? ZERO_USAGE, usage);
  }
  if (fromMessages) return fromMessages;
  const tokenUsage = (output.llmOutput as { tokenUsage?: Record<string, unknown> } | undefined)?.tokenUsage;
  if (!tokenUsage) return undefined;
  const input = count(tokenUsage.promptTokens);
  const completion = count(tokenUsage.completionTokens);
  return { input, output: completion, total: count(tokenUsage.totalTokens) || input + completion };
}
