import { errorCode } from './retryPolicy';
import { LlmConnectionError, LlmTimeoutError } from './llmErrors';

export interface IdleTimeoutOptions {
  url: string;
  timeoutMs: number;
  /** The signal of this attempt's request: aborted by the caller, or by us when the body goes quiet. */
  signal: AbortSignal;
  /** Aborts the underlying request, which closes the socket (so a stalled server sees us leave). */
  abortRequest: (reason: Error) => void;
  /** Called once when the body is finished, failed or cancelled. */
  onSettled: () => void;
}

/**
 * Returns the same response with a body that fails when no bytes arrive for `timeoutMs`. A server that sends
 * headers and then stalls (or stalls mid-stream) would otherwise hang the SSE reader forever.
 *
 * Body errors are translated on the way out: the OpenAI SDK's stream reader silently *ends* on any
 * AbortError, which would turn a timeout into a truncated but "successful" answer. So our own timeout surfaces
 * as LlmTimeoutError and a broken connection as LlmConnectionError; only a real caller abort stays an
 * AbortError (and ends the stream quietly, as the caller asked).
 */
export function withIdleTimeout(response: Response, options: IdleTimeoutOptions): Response {
  const source = response.body;
  if (!source) {
    options.onSettled();
    return response;
  }
  const reader = source.getReader();
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    options.onSettled();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await readWithin(reader, options);
          if (chunk.done) {
            settle();
            controller.close();
          } else {
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          settle();
          controller.error(translateBodyError(error, options));
        }
      },
      async cancel(reason) {
        settle();
        await reader.cancel(reason).catch(() => {});
      },
    },
    // Pull only on demand: the idle clock should run while the consumer waits for bytes, not while it is busy.
    { highWaterMark: 0 },
  );

  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: IdleTimeoutOptions,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const timeout = new LlmTimeoutError(options.url, options.timeoutMs, 'body');
      reject(timeout);
      options.abortRequest(timeout);
    }, options.timeoutMs);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function translateBodyError(error: unknown, options: IdleTimeoutOptions): unknown {
  if (error instanceof LlmTimeoutError) return error;
  const reason: unknown = options.signal.reason;
  if (options.signal.aborted) return reason instanceof LlmTimeoutError ? reason : error;
  return new LlmConnectionError(options.url, 'mid-response', errorCode(error), 0, { cause: error });
}
