import { abortReason, linkedAbortController, sleep, throwIfAborted } from '../util/abort';
import { withIdleTimeout } from './idleTimeoutBody';
import { LlmConnectionError, LlmTimeoutError, MODEL_HEADER, RETRIES_HEADER } from './llmErrors';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './modelSettings';
import { DEFAULT_RETRY_BASE_DELAY_MS, MAX_RETRY_AFTER_MS, errorCode, isRetryableConnectionCode, isRetryableStatus, retryDelayMs } from './retryPolicy';

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ResilientFetchOptions {
  /** Longest wait for response headers, and longest silence inside a response body. */
  timeoutMs?: number;
  maxRetries?: number;
  /** First back-off step; tests shrink it. */
  retryBaseDelayMs?: number;
  /** Cap on a server's Retry-After. */
  maxRetryAfterMs?: number;
  /** The transport underneath; the global fetch by default. */
  fetch?: FetchFn;
}

/**
 * The one retry-and-deadline layer of the LLM stack, installed as the OpenAI SDK's `fetch`.
 * - Retries 429 and 5xx (honouring Retry-After, capped) and connections that broke before any response; nothing else.
 * - Bounds the wait for headers and every silence in the body by `timeoutMs`.
 * - The caller's signal (the SDK forwards the user's) stops waits and aborts the request, closing the socket.
 * A response we give up on is returned as-is, marked with RETRIES_HEADER, so the SDK still builds its usual
 * APIError (status, server message, context-overflow detection) and describeLlmError can say "gave up after N".
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): FetchFn {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = options.fetch ?? ((input, init) => fetch(input, init));
  const delays = {
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
  };

  async function attempt(url: string, input: string | URL | Request, init: RequestInit): Promise<Response> {
    const link = linkedAbortController(init.signal ?? undefined);
    const headersTimer = setTimeout(() => link.controller.abort(new LlmTimeoutError(url, timeoutMs, 'headers')), timeoutMs);
    let response: Response;
    try {
      response = await transport(input, { ...init, signal: link.controller.signal });
    } catch (error) {
      link.dispose();
      const reason: unknown = link.controller.signal.reason;
      throw reason instanceof LlmTimeoutError ? reason : error;
    } finally {
      clearTimeout(headersTimer);
    }
    return withIdleTimeout(response, {
      url,
      timeoutMs,
      signal: link.controller.signal,
      abortRequest: (reason) => link.controller.abort(reason),
      onSettled: link.dispose,
    });
  }

  return async function resilientFetch(input, init = {}) {
    const url = input instanceof Request ? input.url : String(input);
    const callerSignal = init.signal ?? undefined;
    // A streamed request body can be sent only once; the SDK sends JSON strings, which can be replayed.
    const maxRetries = isReplayable(init.body) ? (options.maxRetries ?? DEFAULT_MAX_RETRIES) : 0;

    for (let retries = 0; ; retries++) {
      throwIfAborted(callerSignal);
      let delayMs: number;
      try {
        const response = await attempt(url, input, init);
        if (response.ok) return response;
        if (!isRetryableStatus(response.status) || retries >= maxRetries) return markGaveUp(response, retries, init.body);
        delayMs = retryDelayMs(response.headers, retries, delays);
        await response.body?.cancel().catch(() => {});
      } catch (error) {
        if (callerSignal?.aborted) throw abortReason(callerSignal);
        if (error instanceof LlmTimeoutError) throw error; // the server may still be working on it: do not pile on
        const code = errorCode(error);
        if (!isRetryableConnectionCode(code) || retries >= maxRetries) {
          throw new LlmConnectionError(url, 'before-response', code, retries, { cause: error });
        }
        delayMs = retryDelayMs(undefined, retries, delays);
      }
      await sleep(delayMs, callerSignal);
    }
  };
}

function isReplayable(body: RequestInit['body']): boolean {
  return body == null || typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/** Fetch response headers are immutable, so the marked copy is a new Response around the same body. */
function markGaveUp(response: Response, retries: number, requestBody: RequestInit['body']): Response {
  const headers = new Headers(response.headers);
  headers.set(RETRIES_HEADER, String(retries));
  const model = modelOf(requestBody);
  if (model) headers.set(MODEL_HEADER, encodeURIComponent(model));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function modelOf(body: RequestInit['body']): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const model: unknown = (JSON.parse(body) as { model?: unknown }).model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}
