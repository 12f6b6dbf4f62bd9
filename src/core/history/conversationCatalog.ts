import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { ConversationFile, type FileStamp } from './conversationFile';
import { isValidConversationId } from './conversationIds';
import type { IndexEntry } from './conversationIndex';
import { asLoaded, loadConversationFileLocked, readConversationFile, type LoadResult, type ReadResult } from './conversationLoader';
import { withFileLockSync, type LockTiming } from './conversationLock';
import type { ConversationEvent } from './conversationLog';
import { applyEvent, snapshotEvents, summarize, type ConversationState } from './conversationModel';
import type { ConversationSummary } from './conversationTypes';
import { conversationLockPath, conversationPath, type StorePaths } from './storePaths';

export interface CatalogEntry {
  summary: ConversationSummary;
  file: ConversationFile;
  /** Loaded on first use: the history list needs only the summary. */
  state?: ConversationState;
}

/**
 * The conversations this store knows about: summaries for all of them, full content for those read so
 * far. Reading is lazy so that opening a large history costs one index read, not one read per file.
 * Files are read without the lock; only a file that needs a repair (a torn last line, damage) is read
 * again under its lock, because only then can a partial line be told from one another window is writing.
 */
export class ConversationCatalog {
  private readonly entries = new Map<string, CatalogEntry>();
  /** Problems found after open, e.g. a file that turned out damaged when first read. */
  readonly laterProblems: string[] = [];

  constructor(
    private readonly paths: StorePaths,
    private readonly lockTiming: LockTiming,
  ) {}

  values(): CatalogEntry[] {
    return [...this.entries.values()];
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  entry(id: string): CatalogEntry | undefined {
    return isValidConversationId(id) ? this.entries.get(id) : undefined;
  }

  /** The entry with its content, reading the file on first use; undefined if unknown or unreadable. */
  loaded(id: string): (CatalogEntry & { state: ConversationState }) | undefined {
    const entry = this.entry(id);
    if (!entry || entry.state) return entry as (CatalogEntry & { state: ConversationState }) | undefined;
    this.entries.delete(id);
    const problem = this.addRead(id, readConversationFile(entry.file.path, id));
    if (problem) this.laterProblems.push(problem);
    return this.entries.get(id) as (CatalogEntry & { state: ConversationState }) | undefined;
  }

  /**
   * Adds a conversation from a lock-free read; returns the problem to report, if any. A file that needs
   * a repair is re-read and repaired under its lock, if the lock is free. If a live process holds it,
   * that process is writing the very bytes in question, so what was read is kept and nothing is touched
   * (this process's next write re-reads the file under the lock anyway).
   */
  addRead(id: string, read: ReadResult): string | undefined {
    const repaired = needsRepair(read) ? withFileLockSync(this.lockPath(id), this.lockTiming, () => this.loadLocked(id)) : undefined;
    const result = repaired?.value ?? asLoaded(read, basename(conversationPath(this.paths, id)));
    if (result.kind === 'unavailable') return result.problem;
    this.set(id, summarize(result.state.conversation), { existsOnDisk: true, stamp: result.stamp, state: result.state });
    return result.problem;
  }

  addCached(id: string, summary: ConversationSummary, stamp: FileStamp): void {
    this.set(id, summary, { existsOnDisk: true, stamp });
  }

  addNew(state: ConversationState): CatalogEntry {
    return this.set(state.conversation.id, summarize(state.conversation), { existsOnDisk: false, state });
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  restore(id: string, entry: CatalogEntry): void {
    this.entries.set(id, entry);
  }

  /** What index.json should say now; a file with unsaved lines is marked to be re-read on next open. */
  indexEntries(): IndexEntry[] {
    return this.values()
      .filter((e) => e.file.existsOnDisk)
      .map((e) => {
        const stamp = e.file.hasUnsavedChanges ? undefined : e.file.stamp;
        return { summary: e.summary, size: stamp ? stamp.size : -1, mtimeMs: stamp ? stamp.mtimeMs : 0 };
      });
  }

  private loadLocked(id: string): LoadResult {
    return loadConversationFileLocked(conversationPath(this.paths, id), id, this.paths.corrupt);
  }

  private lockPath(id: string): string {
    return conversationLockPath(this.paths, id);
  }

  private set(id: string, summary: ConversationSummary, options: { existsOnDisk: boolean; stamp?: FileStamp; state?: ConversationState }): CatalogEntry {
    const entry: CatalogEntry = { summary, state: options.state, file: undefined as unknown as ConversationFile };
    const fileOptions = { ...options, formatVersion: options.state?.formatVersion };
    entry.file = new ConversationFile(conversationPath(this.paths, id), id, this.lockPath(id), this.lockTiming, fileOptions, {
      snapshot: () => {
        if (!entry.state) throw new Error('Cannot recreate a conversation file that was never read');
        return snapshotEvents(entry.state);
      },
      reload: (unsaved) => this.reload(id, entry, unsaved),
    });
    this.entries.set(id, entry);
    return entry;
  }

  /** Lock held: another process changed the file. The file is the truth; our unsaved events go on top. */
  private reload(id: string, entry: CatalogEntry, unsaved: readonly ConversationEvent[]): { stamp: FileStamp | undefined; formatVersion: number } | 'gone' {
    const result = this.loadLocked(id);
    if (result.problem) this.laterProblems.push(result.problem);
    if (result.kind === 'unavailable') {
      if (!existsSync(entry.file.path)) return 'gone';
      throw new Error(result.problem); // unreadable or a newer format now: appending could only make it worse
    }
    if (result.repairError) throw result.repairError;
    const formatVersion = result.state.formatVersion; // of the file as read, before our lines go on top
    for (const event of unsaved) applyEvent(result.state, event);
    entry.state = result.state;
    entry.summary = summarize(result.state.conversation);
    return { stamp: result.stamp, formatVersion };
  }
}

function needsRepair(read: ReadResult): boolean {
  return read.kind === 'damaged' || (read.kind === 'read' && read.tail !== undefined);
}
