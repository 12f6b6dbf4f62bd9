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
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // The consumer learns of a timeout at once, even from a transport that ignores the abort (the read under it
  // settles later: `next` then throws the timeout again, into a stream already errored, where it changes nothing).
  let failure: LlmTimeoutError | undefined;
  const clock = new IdleClock(options, (timeout) => {
    failure = timeout;
    settle();
    controller.error(timeout);
    // A read pending in the iterator below ends at once and throws `failure` (the stream is errored just above).
    if (iterated) void reader.cancel(timeout).catch(() => {});
    options.abortRequest(timeout);
  });
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    clock.stop();
    options.onSettled();
  };

  let iterated = false;
  /** One read of the source under the idle clock, its errors translated: the stream and the iterator below share it. */
  const next = async (): Promise<IteratorResult<Uint8Array, undefined>> => {
    if (failure) throw failure;
    if (settled) return { done: true, value: undefined };
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      clock.waiting();
      chunk = await reader.read();
      clock.busy();
    } catch (error) {
      settle();
      throw translateBodyError(error, options);
    }
    if (failure) throw failure; // the clock fired (and cancelled the read) while we waited
    if (chunk.done) settle();
    return chunk.done ? { done: true, value: undefined } : chunk;
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      async pull() {
        try {
          const chunk = await next();
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (error) {
          controller.error(error);
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

  // A streamed body is read with `for await` (completionChunkStream.ts; the OpenAI SDK's decoder too: its
  // ReadableStreamToAsyncIterable takes any stream's own async iterator as is). Reading `reader` straight from here,
  // with the same clock and the same error translation, skips per chunk a second stream's pull/enqueue and Node's
  // promise-heavy stream iterator: a few µs of a streamed token's CPU (bench/streamingOverhead.ts). getReader(),
  // text() and json() still read the stream above.
  const iterator: AsyncIterableIterator<Uint8Array> = {
    next,
    async return() {
      settle();
      await reader.cancel().catch(() => {});
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  Object.defineProperty(body, Symbol.asyncIterator, {
    configurable: true,
    writable: true,
    value: () => {
      body.getReader(); // locks the body (or throws if it is already being read), as the stream's own iterator does
      iterated = true;
      return iterator;
    },
  });

  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Measures silence while a read is pending, with one timer for the whole body. A timer and a promise per read
 * cost a streamed token more CPU than the SSE decoding under it (`npm run bench`, streaming overhead); here a
 * read only stamps the time, and the timer, when it fires, re-arms for whatever is left of the deadline.
 * Firing errors the body with the timeout and aborts the request, which closes the socket.
 * The timer is armed only once someone reads and never keeps the process alive: a body nobody reads (or that
 * is read no more) must not hold up the CLI's exit, as a timer that re-armed for ever did.
 */
class IdleClock {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waitingSince: number | undefined;

  constructor(
    private readonly options: IdleTimeoutOptions,
    private readonly onTimeout: (timeout: LlmTimeoutError) => void,
  ) {}

  waiting(): void {
    this.waitingSince = performance.now();
    if (!this.timer) this.arm(this.options.timeoutMs);
  }

  busy(): void {
    this.waitingSince = undefined;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    // Unref'd: a pending read has its socket keeping the process alive; a body read no more must not.
    this.timer = setTimeout(() => this.check(), delayMs).unref();
  }

  private check(): void {
    this.timer = undefined;
    // A consumer that is busy (not reading) is never timed out: the next read arms the clock again.
    if (this.waitingSince === undefined) return;
    const silentMs = performance.now() - this.waitingSince;
    if (silentMs < this.options.timeoutMs) return this.arm(this.options.timeoutMs - silentMs);
    this.onTimeout(new LlmTimeoutError(this.options.url, this.options.timeoutMs, 'body'));
  }
}

function translateBodyError(error: unknown, options: IdleTimeoutOptions): unknown {
  if (error instanceof LlmTimeoutError) return error;
  const reason: unknown = options.signal.reason;
  if (options.signal.aborted) return reason instanceof LlmTimeoutError ? reason : error;
  return new LlmConnectionError(options.url, 'mid-response', errorCode(error), 0, { cause: error });
}
