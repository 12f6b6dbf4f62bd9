import { LanguageModelStalledError } from './languageModelErrors';

/**
 * The next part of a response stream, or an error when the user stopped (the signal's reason, as `.stream()`
 * throws it) or when nothing arrived for `timeoutMs`. Both cancel the VS Code request through `cancel`, so the
 * provider stops generating; neither waits for the provider to notice.
 */
export function nextPart<T>(iterator: AsyncIterator<T>, options: DeadlineOptions): Promise<IteratorResult<T>> {
  return withDeadline(() => iterator.next(), options);
}

export interface DeadlineOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  modelName: string;
  cancel(): void;
  /** The error for a timeout; by default "sent nothing for N s". */
  stalled?: () => Error;
}

/** `start()`'s result, unless the user stops first or `timeoutMs` passes (both cancel the request). */
export async function withDeadline<T>(start: () => PromiseLike<T>, options: DeadlineOptions): Promise<T> {
  const { signal } = options;
  signal?.throwIfAborted();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      options.cancel();
      reject(options.stalled?.() ?? new LanguageModelStalledError(options.modelName, options.timeoutMs));
    }, options.timeoutMs);
    onAbort = () => {
      options.cancel();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const next = Promise.resolve(start());
    next.catch(() => {}); // after a stop or a stall the request may still reject: that is no news
    return await Promise.race([next, interrupted]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
