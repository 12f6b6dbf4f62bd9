/** How the engine tells a cancelled run from a timed-out step; the plain abort helpers live in util/abort. */

export class StepTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${formatMs(timeoutMs)}`);
    this.name = 'StepTimeoutError';
  }
}

export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted && !(signal.reason instanceof StepTimeoutError)) return true;
  return error instanceof Error && error.name === 'AbortError' && !(error instanceof StepTimeoutError);
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
