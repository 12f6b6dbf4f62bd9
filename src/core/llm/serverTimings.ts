import type { TokenUsage } from './usage';

/**
 * What a model call cost, as the server measured it. llama-server sends `timings` on the last event of a
 * streamed answer: prompt tokens it evaluated (`prompt_n`) and took from its cache (`cache_n`), and how long
 * each phase took. Other servers send usage only (`prompt_tokens_details.cached_tokens` at best).
 */
export interface ServerTimings {
  /** Prompt tokens the server computed for this request. */
  evaluatedTokens: number;
  /** Prompt tokens it reused from its cache. */
  cachedTokens: number;
  promptMs: number;
  generatedTokens: number;
  generatedMs: number;
}

/**
 * Passes a streamed answer's events through, moving llama-server's `timings` into the event's `usage`: LangChain
 * keeps `usage` whole in the last chunk's `response_metadata.usage` and drops every other unknown field.
 */
export async function* keepServerTimings<T>(events: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  for await (const event of events) {
    const { usage, timings } = (event ?? {}) as { usage?: Record<string, unknown>; timings?: unknown };
    if (usage && typeof usage === 'object' && timings && typeof timings === 'object') usage.timings = timings;
    yield event;
  }
}

/** Where a message chunk keeps the timings so far of the event it was made from: a symbol, which chunks' merging skips. */
const TIMINGS_SO_FAR = Symbol('llama-server timings so far');

/**
 * Keeps on a streamed message chunk the timings its event carried: llama-server, asked for `timings_per_token`, sends
 * the figures so far on every event. A turn CodeWiki ends early (a small model's where-is answer once it has named
 * its place, placedAnswerCut.ts) never reads the last event, and with them still reports what the server computed
 * and took from its cache, not an estimate. Not in `response_metadata`: LangChain merges chunks' metadata, and two
 * different numbers under one key make it throw.
 */
export function carryServerTimings<T extends object>(chunk: T, event: unknown): T {
  const timings = (event as { timings?: unknown } | undefined)?.timings;
  if (timings && typeof timings === 'object') Object.defineProperty(chunk, TIMINGS_SO_FAR, { value: timings });
  return chunk;
}

/** The timings a streamed chunk carries (see keepServerTimings and carryServerTimings), or undefined. */
export function serverTimingsOf(chunk: unknown): ServerTimings | undefined {
  const metadata = (chunk as { response_metadata?: { usage?: { timings?: Record<string, unknown> } } } | undefined)?.response_metadata;
  const timings = metadata?.usage?.timings ?? (chunk as { [TIMINGS_SO_FAR]?: Record<string, unknown> } | undefined)?.[TIMINGS_SO_FAR];
  if (!timings || typeof timings !== 'object') return undefined;
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  return {
    evaluatedTokens: number(timings.prompt_n),
    cachedTokens: number(timings.cache_n),
    promptMs: number(timings.prompt_ms),
    generatedTokens: number(timings.predicted_n),
    generatedMs: number(timings.predicted_ms),
  };
}

/** A call's usage as llama-server's timings give it: what was computed and taken from the cache, and generated so far. */
export function usageFromTimings(timings: ServerTimings): TokenUsage {
  const input = timings.evaluatedTokens + timings.cachedTokens;
  return { input, output: timings.generatedTokens, total: input + timings.generatedTokens, cached: timings.cachedTokens };
}
