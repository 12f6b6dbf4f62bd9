/**
 * Which failures are worth another attempt, and how long to wait first. This is the only retry policy in the
 * LLM stack: LangChain's AsyncCaller and the OpenAI SDK are both configured with zero retries.
 */

export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** A server asking for more than this is effectively down; waiting longer only looks like a hang. */
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;

/**
 * 429 and 5xx are transient by definition. 501 (Not Implemented) is the exception: asking again cannot help.
 * Every other 4xx (400, 401, 403, 404, 422...) is a problem with the request or the configuration.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/**
 * Only connections that broke are retried: a reused keep-alive socket the server had just closed, or a reset
 * from a proxy or a restarting server. Refused connections, unknown hosts and connect timeouts are not: they
 * mean the server is not running or the base URL is wrong, and the user should hear that at once.
 */
const RETRYABLE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

export function isRetryableConnectionCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CONNECTION_CODES.has(code);
}

/** The first `code` string along the cause chain; undici wraps the system error as `TypeError('fetch failed', { cause })`. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Undefined when absent or garbled. */
export function parseRetryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // All three HTTP-date forms start with a day name; Date.parse alone would read "-3" as a year.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential back-off with "equal jitter": half the step is fixed so a retry never fires at once, half is
 * random so many clients rate-limited together do not come back in lockstep.
 */
export function backoffDelayMs(retryIndex: number, baseDelayMs: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_BACKOFF_MS, baseDelayMs * 2 ** retryIndex);
  return step / 2 + random() * (step / 2);
}

/**
 * The server's wish wins (capped), otherwise our back-off. OpenAI also sends the finer `retry-after-ms`,
 * which is preferred when present.
 */
export function retryDelayMs(
  headers: { get(name: string): string | null } | undefined,
  retryIndex: number,
  options: { baseDelayMs: number; maxRetryAfterMs: number },
): number {
  const precise = headers?.get('retry-after-ms')?.trim();
  const requested = precise && /^\d+(\.\d+)?$/.test(precise) ? Number(precise) : parseRetryAfterMs(headers?.get('retry-after'));
  return requested !== undefined ? Math.min(requested, options.maxRetryAfterMs) : backoffDelayMs(retryIndex, options.baseDelayMs);
}
