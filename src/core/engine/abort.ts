/** Small AbortSignal helpers: every wait in the engine must end the moment the run is cancelled. */

export class CancelledError extends Error {
  constructor(message = 'Cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}

export class StepTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${formatMs(timeoutMs)}`);
    this.name = 'StepTimeoutError';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new CancelledError();
}

/** A controller aborted when any parent aborts; `dispose` detaches it so long runs do not leak listeners. */
export function childController(...parents: Array<AbortSignal | undefined>): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => parent.removeEventListener('abort', onAbort));
  }
  return { controller, dispose: () => cleanups.forEach((c) => c()) };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new CancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted && !(signal.reason instanceof StepTimeoutError)) return true;
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError' && !(error instanceof StepTimeoutError));
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
