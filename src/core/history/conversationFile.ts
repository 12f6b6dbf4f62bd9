import { constants } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { StorageWriteError } from './historyErrors';

/** Size and modification time of a conversation file right after this process last wrote it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** Repairs not yet made on disk; applied before the next append so lines never run together. */
export interface PendingRepair {
  /** Cut the file back to this size (dropping a torn line), but only if it is still the same file (`inode`). */
  truncateTo?: number;
  inode?: number;
  addNewline?: boolean;
}

const APPEND_ONLY = constants.O_WRONLY | constants.O_APPEND; // no O_CREAT: a vanished file must not come back headerless

/**
 * Owns the writes to one conversation log. Lines are queued, then written in order by a single chain,
 * so concurrent callers cannot interleave. A line leaves the queue only once it is on disk (fdatasync),
 * so after a failed write (disk full, …) it stays queued and the next append or `flush()` retries it.
 */
export class ConversationFile {
  private pending: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private repair: PendingRepair = {};
  private onDisk: boolean;
  stamp: FileStamp | undefined;

  constructor(
    readonly path: string,
    readonly conversationId: string,
    options: { existsOnDisk: boolean; stamp?: FileStamp },
    /** The whole conversation as log lines, to recreate the file if it disappeared under us. */
    private readonly snapshot: () => string[],
  ) {
    this.onDisk = options.existsOnDisk;
    this.stamp = options.stamp;
  }

  get hasUnsavedChanges(): boolean {
    return this.pending.length > 0;
  }

  get existsOnDisk(): boolean {
    return this.onDisk;
  }

  scheduleRepair(repair: PendingRepair): void {
    this.repair = { ...this.repair, ...repair };
    this.stamp = undefined; // the file is not in the state an index entry could vouch for
  }

  append(line: string): Promise<void> {
    this.pending.push(line);
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

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    try {
      if (!this.onDisk) await this.writeWholeFile();
      else await this.appendQueued();
    } catch (error) {
      throw StorageWriteError.wrap('Could not save the conversation', this.path, error, this.conversationId);
    }
  }

  /** A new file is written atomically, so a file that exists always starts with a complete header. */
  private async writeWholeFile(): Promise<void> {
    const count = this.pending.length;
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, this.pending.join(''));
    this.pending.splice(0, count);
    this.onDisk = true;
    this.repair = {};
    const after = await stat(this.path);
    this.stamp = { size: after.size, mtimeMs: after.mtimeMs };
  }

  private async appendQueued(): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(this.path, APPEND_ONLY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // The file was removed behind our back; memory holds the whole conversation, so write it anew.
      this.pending = this.snapshot();
      this.onDisk = false;
      return this.writeWholeFile();
    }
    try {
      const count = this.pending.length;
      const before = await handle.stat();
      let start = before.size;
      const { truncateTo, inode } = this.repair;
      if (truncateTo !== undefined && inode === before.ino && before.size > truncateTo) {
        await handle.truncate(truncateTo);
        start = truncateTo;
      }
      this.repair.truncateTo = undefined;
      const text = (this.repair.addNewline ? '\n' : '') + this.pending.slice(0, count).join('');
      try {
        await handle.appendFile(text, 'utf8');
        await handle.datasync();
      } catch (error) {
        await this.cutPartialWrite(handle, start, before.ino);
        throw error;
      }
      this.repair.addNewline = false;
      this.pending.splice(0, count);
      const after = await handle.stat();
      this.stamp = { size: after.size, mtimeMs: after.mtimeMs };
    } finally {
      await handle.close();
    }
  }

  /** A failed write may have left half a line; cut it now, or before the next attempt if even that fails. */
  private async cutPartialWrite(handle: FileHandle, start: number, inode: number): Promise<void> {
    try {
      await handle.truncate(start);
    } catch {
      this.repair.truncateTo = start;
      this.repair.inode = inode;
    }
  }
}
