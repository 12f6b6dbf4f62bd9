import { abortReason } from '../util/abort';
import type { CodeIndex, IndexStatus } from './codeIndexTypes';

/** How long a question or a tool waits for an index that is still building before it goes on with part of it. */
export const INDEX_WAIT_MS = 60_000;

/**
 * Waits until the index is built (starting the build if nobody has), reporting progress, for at most
 * `maxWaitMs`. The caller's signal ends the wait, never the build: other questions, the tools and the status
 * bar share it. A failed build is not an error here: searches then answer from what was indexed, and say so.
 */
export async function waitForIndex(
  index: CodeIndex,
  options: { signal?: AbortSignal; onProgress?(status: IndexStatus): void; maxWaitMs?: number } = {},
): Promise<void> {
  const status = index.status();
  if (status.state === 'ready' || status.state === 'disabled') return;
  const { signal, onProgress } = options;
  onProgress?.(status);
  const unsubscribe = onProgress ? index.onStatus((next) => next.state === 'building' && onProgress(next)) : () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      index.update(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, options.maxWaitMs ?? INDEX_WAIT_MS))),
      new Promise<never>((_, reject) => {
        if (!signal) return;
        onAbort = () => reject(abortReason(signal));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    if (signal?.aborted) throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
