import { ConversationStore, type StoreOptions } from './conversationStore';
import { conversationMatches } from './conversationSearch';
import type { AgentToolCall, AgentTurnProgress, ChatMessage, Conversation, ConversationSummary } from './conversationTypes';
import { StorageWriteError, UnknownConversationError } from './historyErrors';
import { conversationToMarkdown } from './markdownExport';
import { readViewState, writeViewState } from './viewStateFile';

/**
 * The conversation history as the extension and the CLI use it. Every turn — plain chat or /agent run —
 * goes through here, so anything the user sees in a conversation can be found again in the history.
 *
 * Writes apply in memory first, then go to disk; when the disk refuses, the returned promise rejects with
 * StorageWriteError, the in-memory copy keeps the change, and the next write or `flush()` retries it.
 * `delete` moves the conversation's file to `<storageDir>/trash/` rather than erasing it.
 */
export class StateManager {
  private disposed = false;
  private viewStateUnsaved = false;

  private constructor(
    private readonly store: ConversationStore,
    private openConversationId: string | undefined,
  ) {}

  /** `problems` lists damaged files that were moved aside or could not be read, in plain words. */
  static async open(storageDir: string, options?: StoreOptions): Promise<{ manager: StateManager; problems: string[] }> {
    const { store, problems } = await ConversationStore.open(storageDir, options);
    const view = await readViewState(store.paths.viewState);
    return { manager: new StateManager(store, view.openConversationId), problems };
  }

  createConversation(title?: string): Promise<Conversation> {
    this.assertOpen();
    return this.store.create(title);
  }

  /** A copy: changing it changes nothing until it is passed back through this API. */
  getConversation(id: string): Conversation | undefined {
    const state = this.store.get(id);
    return state ? structuredClone(state.conversation) : undefined;
  }

  listConversations(): ConversationSummary[] {
    return newestFirst(this.store.list());
  }

  /** Reads every conversation not yet in memory, once; later searches run from memory. */
  search(text: string): ConversationSummary[] {
    const hits = new Set(
      this.store.ids().filter((id) => {
        const state = this.store.get(id);
        return state !== undefined && conversationMatches(state.conversation, text);
      }),
    );
    return this.listConversations().filter((summary) => hits.has(summary.id));
  }

  /** Adds a message; a message id already in the conversation is a caller bug and is rejected. */
  appendMessage(conversationId: string, message: ChatMessage): Promise<void> {
    this.assertOpen();
    return this.store.putMessage(conversationId, message, 'append');
  }

  /** Adds or replaces (same id) a message: for streaming answers and /agent runs as they progress. */
  upsertMessage(conversationId: string, message: ChatMessage): Promise<void> {
    this.assertOpen();
    return this.store.putMessage(conversationId, message, 'upsert');
  }

  /**
   * Saves one tool call of an agent turn already in the conversation (upserted by id and parent id),
   * with what the turn gained since the call before. Appends a line the size of the call, so a long
   * turn costs the same per call as a short one; the turn's final `upsertMessage` writes it whole once.
   */
  appendAgentCall(conversationId: string, turnId: string, call: AgentToolCall, progress?: AgentTurnProgress): Promise<void> {
    this.assertOpen();
    return this.store.putAgentCall(conversationId, turnId, call, progress);
  }

  rename(id: string, title: string): Promise<void> {
    this.assertOpen();
    return this.store.rename(id, title);
  }

  /** Moves the conversation to trash; returns false when there was no such conversation. */
  async delete(id: string): Promise<boolean> {
    this.assertOpen();
    const deleted = await this.store.delete(id);
    if (deleted && this.openConversationId === id) await this.setOpenConversationId(undefined);
    return deleted;
  }

  exportMarkdown(id: string): string {
    const state = this.store.get(id);
    if (!state) throw new UnknownConversationError(id);
    return conversationToMarkdown(state.conversation);
  }

  getOpenConversationId(): string | undefined {
    const id = this.openConversationId;
    return id !== undefined && this.store.get(id) ? id : undefined;
  }

  async setOpenConversationId(id: string | undefined): Promise<void> {
    this.assertOpen();
    if (id !== undefined && !this.store.get(id)) throw new UnknownConversationError(id);
    this.openConversationId = id;
    this.viewStateUnsaved = true;
    await this.saveViewState();
  }

  /** Problems found after `open()`, e.g. a conversation file found damaged when first read. */
  takeProblems(): string[] {
    return this.store.takeProblems();
  }

  /** Persists everything pending (unsaved turns, the index, the open conversation) or rejects saying why. */
  async flush(): Promise<void> {
    const results = await Promise.allSettled([this.store.flush(), this.saveViewState()]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    try {
      await this.flush();
    } finally {
      this.disposed = true;
      this.store.dispose();
    }
  }

  private async saveViewState(): Promise<void> {
    if (!this.viewStateUnsaved) return;
    const path = this.store.paths.viewState;
    try {
      await writeViewState(path, { openConversationId: this.openConversationId });
      this.viewStateUnsaved = false;
    } catch (error) {
      throw StorageWriteError.wrap('Could not remember the open conversation', path, error);
    }
  }

  private assertOpen(): void {
    if (this.disposed) throw new Error('The conversation history is closed');
  }
}

function newestFirst(summaries: ConversationSummary[]): ConversationSummary[] {
  return summaries.sort((a, b) => descending(a.updatedAt, b.updatedAt) || descending(a.createdAt, b.createdAt) || descending(a.id, b.id));
}

/** ISO timestamps in UTC sort correctly as plain strings (no locale rules wanted here). */
function descending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
