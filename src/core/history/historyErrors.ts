/**
 * Raised when history could not be written (disk full, permissions, a path that is not a folder).
 * The in-memory copy is kept and the unsaved entries stay queued, so the UI can say "not saved: …"
 * and a later write or `flush()` retries them.
 */
export class StorageWriteError extends Error {
  override readonly name = 'StorageWriteError';
  /** The OS error code (ENOSPC, EACCES, ENOTDIR, …) when there was one. */
  readonly code: string | undefined;

  constructor(
    message: string,
    readonly path: string,
    readonly conversationId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = errorCode(options?.cause);
  }

  static wrap(action: string, path: string, cause: unknown, conversationId?: string): StorageWriteError {
    if (cause instanceof StorageWriteError) return cause;
    return new StorageWriteError(`${action}: ${describeFsError(cause)}`, path, conversationId, { cause });
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A short, plain reason for the user, e.g. "the disk is full (ENOSPC)". */
export function describeFsError(error: unknown): string {
  const code = errorCode(error);
  const plain: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is exceeded',
    EACCES: 'permission denied',
    EPERM: 'the operation is not permitted',
    EROFS: 'the file system is read-only',
    ENOTDIR: 'a part of the storage path is not a folder',
    EISDIR: 'a folder is in the way of the file',
    ENOENT: 'the storage folder is missing',
  };
  if (code && plain[code]) return `${plain[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** The id names no conversation in this store (deleted, never created, or not a valid id at all). */
export class UnknownConversationError extends Error {
  override readonly name = 'UnknownConversationError';

  constructor(readonly conversationId: string) {
    super(`No conversation with id "${String(conversationId).slice(0, 100)}"`);
  }
}
