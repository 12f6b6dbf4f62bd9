import { appendFileSync, closeSync, fstatSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { basename } from 'node:path';
import { moveAsideSync } from '../util/atomicFile';
import type { FileStamp } from './conversationFile';
import { parseConversationLog } from './conversationLog';
import { replayEvents, type ConversationState } from './conversationModel';
import { describeFsError } from './historyErrors';

/**
 * What a lock-free read saw. Another window may be appending, so bytes after the last newline may be a
 * line still being written: they are reported as `tail`, never judged torn, cut or rewritten here.
 */
export type ReadResult =
  | {
      kind: 'read';
      state: ConversationState;
      /** Undefined unless the state covers the file exactly (no tail, nothing appended while reading). */
      stamp: FileStamp | undefined;
      /** Where the bytes after the last newline start, and whether they parse as a whole entry. */
      tail?: { start: number; complete: boolean };
    }
  | { kind: 'damaged'; reason: string }
  /** Unreadable, or from a newer CodeWiki: left alone. */
  | { kind: 'unavailable'; problem: string };

export type LoadResult =
  | {
      kind: 'loaded';
      state: ConversationState;
      stamp: FileStamp | undefined;
      problem?: string;
      /** Set when a torn last line could not be cut off; nothing may be appended until it is. */
      repairError?: unknown;
    }
  | { kind: 'unavailable'; problem: string };

/**
 * Reads one conversation log without changing it. Synchronous on purpose: it runs at startup only for
 * files the index does not vouch for, and later for one conversation when it is first opened or searched.
 */
export function readConversationFile(path: string, id: string): ReadResult {
  const name = basename(path);
  let bytes: Buffer;
  let stamp: FileStamp | undefined;
  try {
    ({ bytes, stamp } = readWithStamp(path));
  } catch (error) {
    return { kind: 'unavailable', problem: `Conversation file ${name} could not be read: ${describeFsError(error)}.` };
  }
  const parsed = parseConversationLog(bytes, id);
  if (parsed.kind === 'too-new') {
    return { kind: 'unavailable', problem: `Conversation file ${name} was written by a newer CodeWiki (format ${parsed.version}); it was left untouched.` };
  }
  if (parsed.kind === 'corrupt') return { kind: 'damaged', reason: parsed.reason };
  const state = replayEvents(parsed.events);
  if (parsed.truncateTo !== undefined) return { kind: 'read', state, stamp: undefined, tail: { start: parsed.truncateTo, complete: false } };
  if (parsed.missingFinalNewline) return { kind: 'read', state, stamp: undefined, tail: { start: bytes.lastIndexOf(0x0a) + 1, complete: true } };
  return { kind: 'read', state, stamp };
}

/**
 * Only with the conversation's lock held, so no live process is writing it: bytes after the last newline
 * are what a dead writer left. A torn entry is cut off, a whole entry that lost its newline gets it
 * back, and a damaged file is moved to `corruptDir` with its bytes intact.
 */
export function loadConversationFileLocked(path: string, id: string, corruptDir: string): LoadResult {
  const read = readConversationFile(path, id);
  if (read.kind === 'damaged') return quarantine(path, corruptDir, read.reason);
  if (read.kind === 'unavailable') return read;
  const { state, tail } = read;
  if (!tail) return { kind: 'loaded', state, stamp: read.stamp };

  const problem = tail.complete ? undefined : `An unfinished last entry in "${state.conversation.title}" was dropped (CodeWiki stopped while saving it).`;
  try {
    if (tail.complete) appendFileSync(path, '\n');
    else truncateSync(path, tail.start);
  } catch (error) {
    // Read-only for now: the state is right, but the file must be fixed before anything is appended.
    return { kind: 'loaded', state, stamp: undefined, problem, repairError: tail.complete ? undefined : error };
  }
  return { kind: 'loaded', state, stamp: stampOf(path), problem };
}

/** A lock-free read as the catalog keeps it, when the lock for a repair could not be had. */
export function asLoaded(read: ReadResult, name: string): LoadResult {
  if (read.kind === 'read') return { kind: 'loaded', state: read.state, stamp: read.stamp };
  if (read.kind === 'unavailable') return read;
  return {
    kind: 'unavailable',
    problem: `Conversation file ${name} is damaged (${read.reason}); it was left in place while another CodeWiki window writes to it.`,
  };
}

/**
 * Reads through one descriptor and stats it before and after, so the stamp describes exactly the bytes
 * read: a stamp taken by a separate stat() could include a line another process appended in between,
 * and index.json would then vouch for content this process never saw.
 */
function readWithStamp(path: string): { bytes: Buffer; stamp: FileStamp | undefined } {
  const fd = openSync(path, 'r');
  try {
    const before = fstatSync(fd);
    const bytes = Buffer.alloc(before.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (n === 0) break; // cut shorter while being read
      filled += n;
    }
    const after = fstatSync(fd);
    const unchanged = filled === before.size && after.size === before.size && after.mtimeMs === before.mtimeMs;
    return { bytes: bytes.subarray(0, filled), stamp: unchanged ? { size: after.size, mtimeMs: after.mtimeMs, ino: after.ino } : undefined };
  } finally {
    closeSync(fd);
  }
}

function quarantine(path: string, corruptDir: string, reason: string): LoadResult {
  const name = basename(path);
  try {
    const movedTo = moveAsideSync(path, corruptDir);
    return {
      kind: 'unavailable',
      problem: `Conversation file ${name} is damaged (${reason}); it was moved to ${movedTo} and the other conversations were loaded.`,
    };
  } catch (error) {
    return {
      kind: 'unavailable',
      problem: `Conversation file ${name} is damaged (${reason}) and could not be moved aside: ${describeFsError(error)}.`,
    };
  }
}

function stampOf(path: string): FileStamp | undefined {
  try {
    const stats = statSync(path);
    return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
  } catch {
    return undefined; // no stamp just means the index will not vouch for this file next time
  }
}
