import { constants, type Stats } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../util/atomicFile';
import { withFileLock, type LockTiming } from './conversationLock';
import { encodeEvent, formatVersionFor, LOG_FORMAT_VERSION, type ConversationEvent } from './conversationLog';
import { StorageWriteError } from './historyErrors';

/** A conversation file as this process last read or wrote it; `ino` tells a replaced file apart. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino?: number;
}

/** What the file needs from the conversation it stores. */
export interface FileOwner {
  /** The whole conversation as events, to recreate the file if it disappeared under us. */
  snapshot(): ConversationEvent[];
  /**
   * Called with the lock held when the file is not as this process left it (another window appended,
   * or a torn line waits to be cut): re-read it, put `unsaved` back on top, and return the stamp and
   * format of what was read, or 'gone' when the file turned out damaged and was moved aside.
   */
  reload(unsaved: readonly ConversationEvent[]): { stamp: FileStamp | undefined; formatVersion: number } | 'gone';
}

// No O_CREAT: a vanished file must not come back headerless. O_APPEND: every write lands at the end,
// even if another process appended since this one last looked.
const APPEND = constants.O_WRONLY | constants.O_APPEND;

/**
 * Owns this process's writes to one conversation log. Events are queued, then written in order by a
 * single chain, so concurrent callers cannot interleave; other processes are kept out by the
 * conversation's lock file (see conversationLock.ts). An event leaves the queue only once it is on disk
 * (fdatasync), so after a failed write (disk full, …) it stays queued and the next append or `flush()`
 * retries it.
 */
export class ConversationFile {
  private pending: ConversationEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private onDisk: boolean;
  /** The format of the file on disk (its header's `v`): a line of a newer format needs a rewrite first. */
  private formatVersion: number;
  /** Undefined when memory may not match the file: the next write re-reads it first. */
  stamp: FileStamp | undefined;

  constructor(
    readonly path: string,
    readonly conversationId: string,
    private readonly lockPath: string,
    private readonly lockTiming: LockTiming,
    options: { existsOnDisk: boolean; stamp?: FileStamp; formatVersion?: number },
    private readonly owner: FileOwner,
  ) {
    this.onDisk = options.existsOnDisk;
    this.stamp = options.stamp;
    this.formatVersion = options.formatVersion ?? 1;
  }

  get hasUnsavedChanges(): boolean {
    return this.pending.length > 0;
  }

  get existsOnDisk(): boolean {
    return this.onDisk;
  }

  append(event: ConversationEvent): Promise<void> {
    this.pending.push(event);
    return this.drain();
  }

  /** Writes whatever is queued; rejects with StorageWriteError when the disk refuses. */
  drain(): Promise<void> {
    const run = this.chain.then(() => this.writePending());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Settles once every write started so far has finished, successfully or not. */
  whenIdle(): Promise<void> {
    return this.chain;
  }

  /** Runs `work` with the conversation locked against other processes, e.g. to move the file away. */
  whileLocked<T>(work: () => Promise<T>): Promise<T> {
    return withFileLock(this.lockPath, this.lockTiming, work);
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    try {
      if (!this.onDisk) await mkdir(dirname(this.path), { recursive: true });
      await this.whileLocked(() => (this.onDisk ? this.appendQueued() : this.writeWholeFile()));
    } catch (error) {
      throw StorageWriteError.wrap('Could not save the conversation', this.path, error, this.conversationId);
    }
  }

  /** A new file is written atomically, so a file that exists always starts with a complete header. */
  private async writeWholeFile(): Promise<void> {
    const count = this.pending.length;
    await writeFileAtomic(this.path, this.pending.map(encodeEvent).join(''));
    this.pending.splice(0, count);
    this.onDisk = true;
    this.formatVersion = LOG_FORMAT_VERSION;
    this.stamp = stampOf(await stat(this.path));
  }

  /** Lock held. The file may have grown by other processes' lines since this one last wrote it. */
  private async appendQueued(): Promise<void> {
    const handle = await this.openForAppend();
    if (!handle) return this.recreate();
    let outcome: 'appended' | 'moved-aside' | 'needs-upgrade';
    try {
      outcome = await this.appendThrough(handle);
    } finally {
      await handle.close();
    }
    if (outcome === 'moved-aside') await this.recreate();
    if (outcome === 'needs-upgrade') await this.rewriteInCurrentFormat();
  }

  /**
   * Writes nothing when a re-read found the file damaged and moved it aside, or when a queued line
   * is of a newer format than the file's header promises (an older CodeWiki would judge it corrupt).
   */
  private async appendThrough(handle: FileHandle): Promise<'appended' | 'moved-aside' | 'needs-upgrade'> {
    const before = await handle.stat();
    // Not a regular file (a device, say): nothing another CodeWiki could have written to; just try.
    if (before.isFile() && !this.matches(before)) {
      const reloaded = this.owner.reload(this.pending);
      if (reloaded === 'gone') return 'moved-aside';
      this.stamp = reloaded.stamp;
      this.formatVersion = reloaded.formatVersion;
    }
    if (this.pending.some((event) => formatVersionFor(event) > this.formatVersion)) return 'needs-upgrade';
    const start = (await handle.stat()).size; // after the reload, which may have cut a torn line
    const count = this.pending.length;
    try {
      await writeFully(handle, Buffer.from(this.pending.slice(0, count).map(encodeEvent).join(''), 'utf8'));
      await handle.datasync();
    } catch (error) {
      await this.cutPartialWrite(handle, start);
      throw error;
    }
    this.pending.splice(0, count);
    this.stamp = stampOf(await handle.stat()); // lock held: memory now matches the file exactly
    return 'appended';
  }

  /**
   * Lock held, and memory matches the file plus the queued lines (appendThrough re-read it if needed):
   * the whole conversation is written again in the current format, atomically, once per file. On
   * failure the old file and the queue stay as they were, and the next write tries again.
   */
  private async rewriteInCurrentFormat(): Promise<void> {
    const count = this.pending.length;
    await writeFileAtomic(this.path, this.owner.snapshot().map(encodeEvent).join(''));
    this.pending.splice(0, count);
    this.formatVersion = LOG_FORMAT_VERSION;
    this.stamp = stampOf(await stat(this.path));
  }

  private async openForAppend(): Promise<FileHandle | undefined> {
    try {
      return await open(this.path, APPEND);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** The file was removed behind our back (deleted, or moved aside as damaged); memory holds it all. */
  private recreate(): Promise<void> {
    this.pending = this.owner.snapshot();
    this.onDisk = false;
    return this.writeWholeFile();
  }

  /** Whether the file is exactly as this process last read or wrote it (appends change size and mtime). */
  private matches(current: Stats): boolean {
    const stamp = this.stamp;
    return stamp !== undefined && stamp.size === current.size && stamp.mtimeMs === current.mtimeMs && stamp.ino === current.ino;
  }

  /** A failed write may have left half a line; cut it now, or let the next writer cut it (stamp unset). */
  private async cutPartialWrite(handle: FileHandle, start: number): Promise<void> {
    try {
      await handle.truncate(start);
    } catch {
      this.stamp = undefined;
    }
  }
}

/**
 * One write() call for the whole batch where the OS allows it (FileHandle.appendFile splits anything over
 * 512 KB), so a reader never sees two halves of a line with time in between; loops on a short write.
 */
async function writeFully(handle: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) offset += (await handle.write(buffer, offset, buffer.length - offset)).bytesWritten;
}

function stampOf(stats: Stats): FileStamp {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}
