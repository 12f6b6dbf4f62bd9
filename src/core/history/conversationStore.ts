import { mkdir } from 'node:fs/promises';
import { moveAsideSync, removeAbandonedTempFiles } from '../util/atomicFile';
import { ConversationCatalog, type CatalogEntry } from './conversationCatalog';
import { newConversationId } from './conversationIds';
import { writeIndex, IndexWriter } from './conversationIndex';
import { DEFAULT_LOCK_TIMING, removeStaleLocks, type LockTiming } from './conversationLock';
import { LOG_FORMAT_VERSION, type ConversationEvent } from './conversationLog';
import { applyEvent, newConversationState, summarize, type ConversationState } from './conversationModel';
import { scanConversations } from './conversationScan';
import type { AgentToolCall, AgentTurnProgress, ChatMessage, Conversation, ConversationSummary } from './conversationTypes';
import { describeFsError, StorageWriteError, UnknownConversationError } from './historyErrors';
import { parseAgentToolCall, parseAgentTurnProgress, parseChatMessage } from './messageSchema';
import { storePaths, type StorePaths } from './storePaths';

export interface StoreOptions {
  /** Quiet time before the index is rewritten after a change; `flush()` writes it at once. */
  indexDelayMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /**
   * Age after which another process's conversation lock is broken even though that process still runs
   * (hung, or a reused pid); a lock whose process is gone is broken at once. For tests.
   */
  lockStaleMs?: number;
}

/**
 * Conversations on disk (see conversationLog.ts for the format, conversationIndex.ts for the index).
 * Every change is applied in memory first and then written; if the write fails the memory copy stays,
 * the unsaved lines stay queued, and the caller gets a StorageWriteError.
 */
export class ConversationStore {
  private readonly catalog: ConversationCatalog;
  private readonly indexWriter: IndexWriter;
  private readonly now: () => number;
  private readonly lockTiming: LockTiming;
  private lastTime = 0;

  private constructor(
    readonly paths: StorePaths,
    options: StoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    const staleMs = options.lockStaleMs ?? DEFAULT_LOCK_TIMING.staleMs;
    this.lockTiming = { staleMs, waitMs: staleMs * 2.5 }; // long enough to outwait a stale lock and break it
    this.catalog = new ConversationCatalog(paths, this.lockTiming);
    this.indexWriter = new IndexWriter(options.indexDelayMs ?? 1500, () => writeIndex(this.paths.index, this.catalog.indexEntries()));
  }

  static async open(root: string, options: StoreOptions = {}): Promise<{ store: ConversationStore; problems: string[] }> {
    const store = new ConversationStore(storePaths(root), options);
    const problems: string[] = [];
    try {
      await mkdir(store.paths.conversations, { recursive: true });
      await mkdir(store.paths.locks, { recursive: true });
    } catch (error) {
      throw StorageWriteError.wrap('Could not create the history folder', store.paths.conversations, error);
    }
    // Tidying only: a leftover temp or lock file is harmless, so failing to remove one must not stop the open.
    await removeAbandonedTempFiles(store.paths.root).catch(() => undefined);
    await removeAbandonedTempFiles(store.paths.conversations).catch(() => undefined);
    await removeStaleLocks(store.paths.locks, store.lockTiming.staleMs).catch(() => undefined);
    const { found, indexIsStale } = await scanConversations(store.paths);
    for (const item of found) {
      if (item.kind === 'cached') {
        store.catalog.addCached(item.id, item.summary, item.stamp);
        continue;
      }
      const problem = store.catalog.addRead(item.id, item.result);
      if (problem) problems.push(problem);
    }

    if (indexIsStale) {
      store.indexWriter.markDirty();
      await store.indexWriter.flush().catch((error: unknown) => {
        problems.push(`The history index could not be saved (${describeFsError(error)}); it will be rebuilt next time.`);
      });
    }
    return { store, problems };
  }

  list(): ConversationSummary[] {
    return this.catalog.values().map((e) => ({ ...e.summary }));
  }

  ids(): string[] {
    return this.catalog.ids();
  }

  /** The live state (callers must not mutate it), read from disk on first use. */
  get(id: string): ConversationState | undefined {
    const before = this.catalog.laterProblems.length;
    const state = this.catalog.loaded(id)?.state;
    if (this.catalog.laterProblems.length > before) this.indexWriter.markDirty(); // a file was found damaged
    return state;
  }

  /** Problems found after open (a file that turned out damaged when first read). */
  takeProblems(): string[] {
    return this.catalog.laterProblems.splice(0);
  }

  async create(title?: string): Promise<Conversation> {
    const id = newConversationId();
    const header: ConversationEvent = { type: 'create', v: LOG_FORMAT_VERSION, id, at: this.timestamp(), title: title?.trim() || undefined };
    const state = newConversationState(id, header.at, header.title);
    const entry = this.catalog.addNew(state);
    await this.write(entry, header);
    return structuredClone(state.conversation);
  }

  async putMessage(conversationId: string, raw: ChatMessage, mode: 'append' | 'upsert'): Promise<void> {
    const message = parseChatMessage(raw);
    const { entry, state } = this.requireLoaded(conversationId);
    if (mode === 'append' && state.conversation.messages.some((m) => m.id === message.id)) {
      throw new Error(`Message "${message.id}" is already in the conversation; use upsertMessage to replace it`);
    }
    await this.apply(entry, state, { type: 'message', at: this.timestamp(), message });
  }

  /** Upserts one tool call into a saved agent turn: a line the size of the call, whatever the turn's size. */
  async putAgentCall(conversationId: string, turnId: string, raw: AgentToolCall, rawProgress?: AgentTurnProgress): Promise<void> {
    const call = parseAgentToolCall(raw);
    const progress = rawProgress === undefined ? undefined : parseAgentTurnProgress(rawProgress);
    const { entry, state } = this.requireLoaded(conversationId);
    if (!state.conversation.messages.some((m) => m.kind === 'agent-turn' && m.id === turnId)) {
      throw new Error(`No agent turn "${turnId}" in the conversation; save the turn before its calls`);
    }
    await this.apply(entry, state, { type: 'agent-call', at: this.timestamp(), turnId, call, ...(progress ? { progress } : {}) });
  }

  async rename(conversationId: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) throw new Error('A conversation title cannot be empty');
    const { entry, state } = this.requireLoaded(conversationId);
    await this.apply(entry, state, { type: 'rename', at: this.timestamp(), title: clean });
  }

  /** Moves the file to `trash/` (recoverable by hand). Returns false if there was no such conversation. */
  async delete(conversationId: string): Promise<boolean> {
    const entry = this.catalog.entry(conversationId);
    if (!entry) return false;
    this.catalog.remove(conversationId); // first, so no new write can recreate the file once it is moved
    await entry.file.whenIdle();
    if (entry.file.existsOnDisk) {
      try {
        // Locked, so the file is not moved while another window is halfway through appending to it.
        await entry.file.whileLocked(async () => moveAsideSync(entry.file.path, this.paths.trash));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          this.catalog.restore(conversationId, entry);
          throw StorageWriteError.wrap('Could not delete the conversation', entry.file.path, error, conversationId);
        }
      }
    }
    this.indexWriter.markDirty();
    return true;
  }

  /** Retries every unsaved entry, then writes the index. Rejects with the first StorageWriteError. */
  async flush(): Promise<void> {
    const errors: unknown[] = [];
    for (const entry of this.catalog.values()) {
      await entry.file.drain().catch((error: unknown) => errors.push(error));
    }
    await this.indexWriter.flush().catch((error: unknown) => errors.push(StorageWriteError.wrap('Could not save the history index', this.paths.index, error)));
    if (errors.length > 0) throw errors[0];
  }

  dispose(): void {
    this.indexWriter.dispose();
  }

  private async apply(entry: CatalogEntry, state: ConversationState, event: ConversationEvent): Promise<void> {
    applyEvent(state, event);
    entry.summary = summarize(state.conversation);
    await this.write(entry, event);
  }

  private async write(entry: CatalogEntry, event: ConversationEvent): Promise<void> {
    try {
      await entry.file.append(event);
    } finally {
      this.indexWriter.markDirty(); // the summary or the file's stamp changed either way
    }
  }

  private requireLoaded(id: string): { entry: CatalogEntry; state: ConversationState } {
    const state = this.get(id);
    const entry = this.catalog.entry(id);
    if (!state || !entry) throw new UnknownConversationError(id);
    return { entry, state };
  }

  /** Strictly increasing, so entries written in the same millisecond still sort in order. */
  private timestamp(): string {
    this.lastTime = Math.max(this.now(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  }
}
