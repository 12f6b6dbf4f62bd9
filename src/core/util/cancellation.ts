/**
 * How a cancelled run is told from a timed-out step or tool call (the engine, the agent and the sessions all ask);
 * the plain abort helpers live in abort.ts.
 */

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
