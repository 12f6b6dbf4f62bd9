import { readdir, stat } from 'node:fs/promises';
import type { FileStamp } from './conversationFile';
import { isValidConversationId } from './conversationIds';
import { readIndex } from './conversationIndex';
import { readConversationFile, type ReadResult } from './conversationLoader';
import type { ConversationSummary } from './conversationTypes';
import { conversationPath, type StorePaths } from './storePaths';

export type ScannedConversation =
  { id: string; kind: 'cached'; summary: ConversationSummary; stamp: FileStamp } | { id: string; kind: 'read'; result: ReadResult };

/**
 * Startup reconciliation of the folder with the index: a file the index vouches for (same size and
 * mtime as recorded) is taken from the index without being read; every other file is read (without
 * changing it: another window may be writing it; repairs are the catalog's, under the lock).
 * `indexIsStale` says the index must be rewritten (missing, unreadable, or out of date).
 */
export async function scanConversations(paths: StorePaths): Promise<{ found: ScannedConversation[]; indexIsStale: boolean }> {
  const index = await readIndex(paths.index);
  let indexIsStale = index === undefined;

  const files = await readdir(paths.conversations, { withFileTypes: true });
  const ids = files
    .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
    .map((f) => f.name.slice(0, -'.jsonl'.length))
    .filter(isValidConversationId);
  const stats = await Promise.all(ids.map((id) => stat(conversationPath(paths, id)).catch(() => undefined)));

  const found = ids.map((id, i): ScannedConversation => {
    const cached = index?.get(id);
    const current = stats[i];
    if (cached && current && cached.size === current.size && cached.mtimeMs === current.mtimeMs) {
      return { id, kind: 'cached', summary: cached.summary, stamp: { size: current.size, mtimeMs: current.mtimeMs } };
    }
    indexIsStale = true;
    return { id, kind: 'read', result: readConversationFile(conversationPath(paths, id), id) };
  });

  const onDisk = new Set(ids);
  if (index && [...index.keys()].some((id) => !onDisk.has(id))) indexIsStale = true;
  return { found, indexIsStale };
}
