import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { FileFacts, SkipReason } from '../codeIndexTypes';
import { looksBinary } from '../../workspace/readTextFile';
import { languageFromPath } from '../../tools/file/languages';

/** Larger files are listed by path but not read: generated tables and data dumps, not code to find. */
export const DEFAULT_MAX_INDEXED_BYTES = 1024 * 1024;

export type ReadOutcome =
  /** Same size and modification time as the facts the index has: not even opened. */
  | { kind: 'unchanged' }
  /** Opened, and its content hash equals the indexed one (touched, or checked out again). */
  | { kind: 'same-content'; mtimeMs: number }
  | { kind: 'changed'; text: string; hash: string; size: number; mtimeMs: number }
  | { kind: 'skipped'; facts: FileFacts }
  | { kind: 'gone' };

/**
 * One file as the builder sees it: a stat first (size and mtime, git's shortcut), the content and its
 * sha256 only when those moved. Content is the key, so a touched file is not parsed again.
 */
export function readIndexable(absolute: string, path: string, known: FileFacts | undefined, maxBytes: number): ReadOutcome {
  let size: number;
  let mtimeMs: number;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) return { kind: 'gone' };
    size = stat.size;
    mtimeMs = stat.mtimeMs;
  } catch {
    return { kind: 'gone' };
  }
  if (known && known.size === size && known.mtimeMs === mtimeMs) return { kind: 'unchanged' };
  if (size > maxBytes) return skipped(path, size, mtimeMs, 'too-large');
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch {
    return skipped(path, size, mtimeMs, 'unreadable');
  }
  if (looksBinary(bytes)) return skipped(path, size, mtimeMs, 'binary');
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (known && known.hash === hash) return { kind: 'same-content', mtimeMs };
  return { kind: 'changed', text: bytes.toString('utf8'), hash, size: bytes.length, mtimeMs };
}

function skipped(path: string, size: number, mtimeMs: number, reason: SkipReason): ReadOutcome {
  const facts: FileFacts = {
    path,
    language: languageFromPath(path),
    hash: '',
    size,
    mtimeMs,
    parsedBy: 'none',
    skipped: reason,
    symbols: [],
    mentions: '',
    imports: [],
    head: '',
  };
  return { kind: 'skipped', facts };
}
