import { abortReason, throwIfAborted } from './abort';

/**
 * The core's one bounded-concurrency helper, in two shapes: `forEachBounded` runs a list with at
 * most `limit` items in flight (file reads, a step's for_each items, the agent's tool calls), and
 * `ConcurrencyLimit` caps work that many callers start independently (a run's `max_concurrency`).
 * Both stop the same way: after a failure or an abort nothing new starts, and nothing already
 * started is abandoned, so when the caller gets its answer no work of its is still running or
 * about to start.
 */

export interface BoundedOptions {
  signal?: AbortSignal;
  /** Checked before each item is started; lets a caller stop once it has enough results. */
  shouldStop?: () => boolean;
}

/**
 * Runs `worker` over `items` with at most `limit` in flight, starting items in index order (so a
 * caller that stops early has processed a prefix). The first failure stops new items; the call
 * settles only when every started item has, then rethrows that failure (Promise.all would reject
 * at once and leave the other lanes running behind the caller's back).
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<void>,
  options: BoundedOptions = {},
): Promise<void> {
  const { signal, shouldStop } = options;
  let next = 0;
  let failure: { error: unknown } | undefined;
  const runLane = async (): Promise<void> => {
    while (next < items.length && !failure) {
      if (signal?.aborted) {
        failure ??= { error: abortReason(signal) };
        return;
      }
      if (shouldStop?.()) return;
      const index = next++;
      try {
        await worker(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runLane));
  if (failure) throw failure.error;
  throwIfAborted(signal);
}

/** A counting semaphore whose queued callers give up (never start) when their signal aborts. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`concurrency limit must be at least 1, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    throwIfAborted(signal);
    if (this.active < this.limit) this.active++;
    else await this.waitForSlot(signal);
    try {
      throwIfAborted(signal);
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Resolves holding a slot handed over by a finishing task; rejects (holding nothing) on abort. */
  private waitForSlot(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortReason(signal!));
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
