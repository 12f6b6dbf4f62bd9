/**
 * Tools check the signal between files so a Stop click ends a 20,000-file walk promptly instead
 * of letting it finish in the background after LangChain has already rejected the call.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** The signal's own reason when it is an Error (the default is a DOMException named AbortError). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' && reason ? reason : 'The operation was aborted');
  error.name = 'AbortError';
  return error;
}
