import { abortReason as abortError } from '../util/abort';

export interface BoundedOptions {
  signal?: AbortSignal;
  /** Checked before each item is started; lets a caller stop once it has enough results. */
  shouldStop?: () => boolean;
}

/**
 * Runs `worker` over `items` with at most `limit` in flight. Opening thousands of files at once
 * exhausts file descriptors (EMFILE) and thrashes the disk; one at a time leaves the disk idle.
 * Items are started in index order, so a caller that stops early has processed a prefix.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<void>,
  options: BoundedOptions = {},
): Promise<void> {
  const { signal, shouldStop } = options;
  let next = 0;
  // After one lane fails the others must not start new items: Promise.all has already rejected.
  let failed = false;
  const runLane = async (): Promise<void> => {
    while (next < items.length && !failed) {
      if (signal?.aborted) throw abortError(signal);
      if (shouldStop?.()) return;
      const index = next++;
      try {
        await worker(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runLane);
  await Promise.all(lanes);
  if (signal?.aborted) throw abortError(signal);
}
