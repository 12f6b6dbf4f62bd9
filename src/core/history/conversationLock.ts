import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../util/processLiveness';

/**
 * Several VS Code windows (processes) share one history folder. Why an advisory lock file per
 * conversation, held only while a change is written:
 * - repairs need to know that nobody is mid-write. A reader cannot tell a line torn by a crash from a
 *   line another window is still writing (the kernel makes a long write visible piece by piece), so only
 *   the holder of the lock may cut a torn line, add a missing newline or move a file aside;
 * - the lock also makes "has anyone else written since I last looked?" a reliable question, so a
 *   writer can re-read the file first and never vouch (in index.json) for content it has not seen;
 * - per-writer append files would change the format older builds read and need merging on every
 *   load; write-then-rename with a version check would rewrite the whole file on every streamed chunk.
 * Locks are per conversation, so windows working on different conversations never wait for each other.
 * A lock whose owner is gone (its pid is dead on this machine) is broken at once; one older than
 * `staleMs` is broken too, so a hung or remote owner cannot block everyone forever.
 */
export interface LockTiming {
  /** Age after which a lock is taken to be abandoned even if its owner looks alive. */
  staleMs: number;
  /** How long a writer waits for a busy lock before giving up with an error. */
  waitMs: number;
}

export const DEFAULT_LOCK_TIMING: LockTiming = { staleMs: 10_000, waitMs: 25_000 };

class LockBusyError extends Error {
  override readonly name = 'LockBusyError';

  constructor(readonly lockPath: string) {
    super('another CodeWiki window kept this conversation locked for too long');
  }
}

/** Runs `work` holding the lock at `lockPath`, waiting (with backoff) while another process holds it. */
export async function withFileLock<T>(lockPath: string, timing: LockTiming, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timing.waitMs;
  let delayMs = 1;
  let owner = tryLock(lockPath, timing.staleMs);
  while (!owner) {
    if (Date.now() > deadline) throw new LockBusyError(lockPath);
    await sleep(delayMs);
    // Kept short: the lock has no queue, and a window streaming into the same conversation releases it
    // only briefly between its writes.
    delayMs = Math.min(delayMs * 2, 10);
    owner = tryLock(lockPath, timing.staleMs);
  }
  try {
    return await work();
  } finally {
    unlock(lockPath, owner);
  }
}

/**
 * No waiting: for readers that only want to repair a file if nobody is writing it. A live holder means
 * the bytes in question are its line in progress, so there is nothing to repair; a dead holder's lock
 * is broken and taken. Undefined when a live process holds the lock.
 */
export function withFileLockSync<T>(lockPath: string, timing: LockTiming, work: () => T): { value: T } | undefined {
  const owner = tryLock(lockPath, timing.staleMs);
  if (!owner) return undefined;
  try {
    return { value: work() };
  } finally {
    unlock(lockPath, owner);
  }
}

/** For the sweep on open: removes locks (and break markers) in `dir` whose owners are gone. */
export async function removeStaleLocks(dir: string, staleMs: number): Promise<void> {
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (name.endsWith('.lock')) breakIfStale(path, staleMs);
    if (name.endsWith('.lock.break')) {
      const seen = readLock(path);
      if (seen && isStale(seen, staleMs)) unlinkQuietly(path);
    }
  }
}

/** Creates the lock file exclusively (O_EXCL); returns the owner text written into it, or undefined. */
function tryLock(lockPath: string, staleMs: number): string | undefined {
  const owner = createExclusive(lockPath);
  if (owner) return owner;
  return breakIfStale(lockPath, staleMs) ? createExclusive(lockPath) : undefined;
}

function createExclusive(path: string): string | undefined {
  const owner = JSON.stringify({ pid: process.pid, host: hostname(), nonce: randomBytes(6).toString('hex') });
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return undefined;
    if (code !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true }); // the locks folder was removed while we were open
    fd = openSync(path, 'wx');
  }
  try {
    writeSync(fd, owner);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(path);
    throw error;
  }
  closeSync(fd);
  return owner;
}

/**
 * Two processes may find the same stale lock. Unlinking it blindly could delete the fresh lock the
 * other one has just taken, so breaking happens under a second, short-lived `.break` lock and only if
 * the lock still holds the very owner that was judged stale.
 */
function breakIfStale(lockPath: string, staleMs: number): boolean {
  const seen = readLock(lockPath);
  if (!seen || !isStale(seen, staleMs)) return false;
  const breakPath = `${lockPath}.break`;
  const breaker = createExclusive(breakPath);
  if (!breaker) {
    // Held for microseconds by a live breaker; only a breaker that died holding it leaves it behind.
    const other = readLock(breakPath);
    if (other && isStale(other, staleMs)) unlinkQuietly(breakPath);
    return false;
  }
  try {
    const again = readLock(lockPath);
    if (!again || again.text !== seen.text || again.mtimeMs !== seen.mtimeMs) return false;
    unlinkQuietly(lockPath);
    return true;
  } finally {
    unlock(breakPath, breaker);
  }
}

interface SeenLock {
  text: string;
  mtimeMs: number;
}

function readLock(path: string): SeenLock | undefined {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    return { text: readFileSync(path, 'utf8'), mtimeMs };
  } catch {
    return undefined; // gone already: nothing to break
  }
}

function isStale(lock: SeenLock, staleMs: number): boolean {
  if (Date.now() - lock.mtimeMs > staleMs) return true;
  try {
    const { pid, host } = JSON.parse(lock.text) as { pid?: unknown; host?: unknown };
    return typeof pid === 'number' && typeof host === 'string' && !isProcessAlive(pid, host);
  } catch {
    return false; // empty or half written: its owner is between open() and write(); judged by age only
  }
}

/** Removes the lock only if it is still ours: after a stale break, it may belong to someone else now. */
function unlock(path: string, owner: string): void {
  if (readLock(path)?.text === owner) unlinkQuietly(path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, which is all that was wanted.
  }
}
