/**
 * Errors raised by our fetch layer (resilientFetch). They reach callers either directly (a failing response
 * body) or as the `cause` of the OpenAI SDK's APIConnectionError (a failure before any response).
 * None of them ever carries the API key: they only know the URL, shown without credentials or query.
 */

/** Headers we add to a failed response we hand back to the SDK, so describeLlmError can say what happened. */
export const RETRIES_HEADER = 'x-codewiki-retries';
export const MODEL_HEADER = 'x-codewiki-model';

export type TimeoutPhase = 'headers' | 'body';

/** The server accepted the request but sent no headers, or stopped sending body bytes, for `timeoutMs`. */
export class LlmTimeoutError extends Error {
  override readonly name = 'LlmTimeoutError';

  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly phase: TimeoutPhase,
  ) {
    super(
      phase === 'headers'
        ? `No response from ${displayUrl(url)} within ${formatSeconds(timeoutMs)}`
        : `The response from ${displayUrl(url)} stalled: no data for ${formatSeconds(timeoutMs)}`,
    );
  }

  /**
   * The OpenAI SDK matches String(error) against /timed? ?out/ and, on a hit, replaces the error with a bare
   * "Request timed out." that has no cause, losing the URL and the limit. So the words stay out of String().
   */
  override toString(): string {
    return `LLM deadline exceeded: ${this.message}`;
  }
}

export type ConnectionPhase = 'before-response' | 'mid-response';

/** The connection failed (refused, reset, DNS) before the response, or broke while the body was streaming. */
export class LlmConnectionError extends Error {
  override readonly name = 'LlmConnectionError';

  constructor(
    readonly url: string,
    readonly phase: ConnectionPhase,
    /** The system or undici code, e.g. ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET. Kept out of the message on purpose (see LlmTimeoutError.toString). */
    readonly code: string | undefined,
    readonly retries: number,
    options?: { cause?: unknown },
  ) {
    super(
      phase === 'before-response' ? `Cannot connect to ${displayUrl(url)}` : `The connection to ${displayUrl(url)} broke in the middle of the response`,
      options,
    );
  }
}

/** Origin and path only: a URL may carry user:password or a `?key=` query, which must not reach messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
