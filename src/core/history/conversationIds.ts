import { randomUUID } from 'node:crypto';

/**
 * Conversation ids become file names, and ids arrive from the webview, so anything outside this
 * conservative alphabet (path separators, dots, NUL, drive letters) is rejected before touching the disk.
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function isValidConversationId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id);
}

export function newConversationId(): string {
  return randomUUID();
}

/** Message ids never reach a path, so any UUID will do; exported so callers build messages the same way. */
export function newMessageId(): string {
  return randomUUID();
}
