import { ConversationFile, type FileStamp } from './conversationFile';
import { isValidConversationId } from './conversationIds';
import type { IndexEntry } from './conversationIndex';
import { loadConversationFile, type LoadResult } from './conversationLoader';
import { encodeEvent } from './conversationLog';
import { snapshotEvents, summarize, type ConversationState } from './conversationModel';
import type { ConversationSummary } from './conversationTypes';
import { conversationPath, type StorePaths } from './storePaths';

export interface CatalogEntry {
  summary: ConversationSummary;
  file: ConversationFile;
  /** Loaded on first use: the history list needs only the summary. */
  state?: ConversationState;
}

/**
 * The conversations this store knows about: summaries for all of them, full content for those read so
 * far. Reading is lazy so that opening a large history costs one index read, not one read per file.
 */
export class ConversationCatalog {
  private readonly entries = new Map<string, CatalogEntry>();
  /** Problems found after open, e.g. a file that turned out damaged when first read. */
  readonly laterProblems: string[] = [];

  constructor(private readonly paths: StorePaths) {}

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
    const problem = this.addLoaded(id, loadConversationFile(entry.file.path, id, this.paths.corrupt));
    if (problem) this.laterProblems.push(problem);
    return this.entries.get(id) as (CatalogEntry & { state: ConversationState }) | undefined;
  }

  addCached(id: string, summary: ConversationSummary, stamp: FileStamp): void {
    this.set(id, summary, { existsOnDisk: true, stamp });
  }

  addNew(state: ConversationState): CatalogEntry {
    return this.set(state.conversation.id, summarize(state.conversation), { existsOnDisk: false, state });
  }

  /** Adds a conversation read from disk; returns the problem to report, if any. */
  addLoaded(id: string, result: LoadResult): string | undefined {
    if (result.kind === 'unavailable') return result.problem;
    const entry = this.set(id, summarize(result.state.conversation), { existsOnDisk: true, stamp: result.stamp, state: result.state });
    if (result.repair.truncateTo !== undefined || result.repair.addNewline) entry.file.scheduleRepair(result.repair);
    return result.problem;
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

  private set(
    id: string,
    summary: ConversationSummary,
    options: { existsOnDisk: boolean; stamp?: FileStamp; state?: ConversationState },
  ): CatalogEntry {
    const entry: CatalogEntry = { summary, state: options.state, file: undefined as unknown as ConversationFile };
    entry.file = new ConversationFile(conversationPath(this.paths, id), id, options, () => {
      if (!entry.state) throw new Error('Cannot recreate a conversation file that was never read');
      return snapshotEvents(entry.state).map(encodeEvent);
    });
    this.entries.set(id, entry);
    return entry;
  }
}
