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

/** The timings a streamed chunk carries (see keepServerTimings), or undefined. */
export function serverTimingsOf(chunk: unknown): ServerTimings | undefined {
  const metadata = (chunk as { response_metadata?: { usage?: { timings?: Record<string, unknown> } } } | undefined)?.response_metadata;
  const timings = metadata?.usage?.timings;
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
