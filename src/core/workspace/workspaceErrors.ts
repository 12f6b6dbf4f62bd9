/**
 * Why a path was refused. Tools report the code to the model (and the user) instead of failing
 * the whole run, so each refusal needs a stable name as well as a readable message.
 */
export type WorkspaceAccessCode =
  'outside-workspace' | 'secret' | 'nul-byte' | 'not-found' | 'not-a-file' | 'not-a-directory' | 'binary' | 'too-large' | 'unreadable';

export class WorkspaceAccessError extends Error {
  override readonly name = 'WorkspaceAccessError';

  constructor(
    readonly code: WorkspaceAccessCode,
    /** The path as the caller wrote it, so the message points at what the model asked for. */
    readonly userPath: string,
    message: string,
  ) {
    super(message);
  }
}

/** Quotes a user-supplied path for messages; JSON quoting makes NUL bytes and newlines visible. */
export function quotePath(userPath: string): string {
  return JSON.stringify(userPath);
}
