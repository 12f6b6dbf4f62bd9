import { appendFileSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { basename } from 'node:path';
import { moveAsideSync } from './atomicFile';
import type { FileStamp, PendingRepair } from './conversationFile';
import { parseConversationLog } from './conversationLog';
import { replayEvents, type ConversationState } from './conversationModel';
import { describeFsError } from './historyErrors';

export type LoadResult =
  | {
      kind: 'loaded';
      state: ConversationState;
      /** Undefined when a repair is still owed, so no index entry vouches for the file as it is. */
      stamp: FileStamp | undefined;
      repair: PendingRepair;
      problem?: string;
    }
  /** Not loaded: damaged (and moved to `corrupt/` when possible), unreadable, or from a newer CodeWiki. */
  | { kind: 'unavailable'; problem: string };

/**
 * Reads one conversation log. Synchronous on purpose: it runs at startup only for files the index does
 * not vouch for, and later for one conversation when it is first opened or searched.
 */
export function loadConversationFile(path: string, id: string, corruptDir: string): LoadResult {
  const name = basename(path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return { kind: 'unavailable', problem: `Conversation file ${name} could not be read: ${describeFsError(error)}.` };
  }

  const parsed = parseConversationLog(bytes, id);
  if (parsed.kind === 'too-new') {
    return {
      kind: 'unavailable',
      problem: `Conversation file ${name} was written by a newer CodeWiki (format ${parsed.version}); it was left untouched.`,
    };
  }
  if (parsed.kind === 'corrupt') return quarantine(path, corruptDir, parsed.reason);

  const state = replayEvents(parsed.events);
  const repair: PendingRepair = {};
  // The bytes after the last newline are an entry whose write was cut short by a crash.
  const problem =
    parsed.truncateTo === undefined
      ? undefined
      : `An unfinished last entry in "${state.conversation.title}" was dropped (CodeWiki stopped while saving it).`;
  try {
    if (parsed.truncateTo !== undefined) truncateSync(path, parsed.truncateTo);
    if (parsed.missingFinalNewline) appendFileSync(path, '\n');
  } catch {
    // Read-only for now: remember the repair so the next append does not glue onto the torn line.
    repair.truncateTo = parsed.truncateTo;
    repair.inode = inodeOf(path);
    repair.addNewline = parsed.missingFinalNewline;
  }
  const owesRepair = repair.truncateTo !== undefined || repair.addNewline === true;
  return { kind: 'loaded', state, stamp: owesRepair ? undefined : stampOf(path), repair, problem };
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

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function stampOf(path: string): FileStamp | undefined {
  try {
    const stats = statSync(path);
    return { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined; // no stamp just means the index will not vouch for this file next time
  }
}
