import { ActionPromptError, formatDiagnostic } from '../actionPrompt/diagnostics';
import { resolveRunInputs } from '../actionPrompt/runInputs';
import type { CodewikiEngine } from '../codewikiEngine';
import type { ChatMessage, Conversation, UserMessage } from '../history/conversationTypes';
import { newMessageId, type StateManager } from '../history';
import type { ModelProvider } from '../llm/modelProvider';
import { runAgentTurn } from './agentTurn';
import { streamAssistantAnswer } from './chatTurn';
import type { SessionListener } from './sessionEvents';

export interface SessionDeps {
  history: StateManager;
  /** Read on every turn, so settings and key changes apply to the next request. */
  models(): ModelProvider;
  /** The engine for the current workspace; undefined when action prompts are unavailable (with the reason). */
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  runLogDir: string;
  post: SessionListener;
}

/**
 * The conversation the sidebar shows, and the one turn that may be in flight. Plain chats and
 * /agent runs go through the same save path, so both always land in history. Nothing here knows
 * about VS Code: the extension forwards webview messages, tests drive it directly.
 */
export class ConversationSession {
  private conversationId: string | undefined;
  private inFlight: AbortController | undefined;
  /**
   * The message being streamed. Turns mutate it as tokens and steps arrive but save it only at
   * milestones, so a view that is re-created mid-turn (sidebar closed and reopened) is given this
   * live copy rather than the last saved one.
   */
  private live: ChatMessage | undefined;

  constructor(private readonly deps: SessionDeps) {
    this.conversationId = deps.history.getOpenConversationId();
  }

  current(): Conversation | undefined {
    const conversation = this.conversationId ? this.deps.history.getConversation(this.conversationId) : undefined;
    const index = conversation && this.live ? conversation.messages.findIndex((m) => m.id === this.live!.id) : -1;
    if (conversation && index >= 0) conversation.messages[index] = structuredClone(this.live!);
    return conversation;
  }

  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  async sendChat(text: string): Promise<void> {
    const conversationId = await this.ensureConversation(text);
    const user: UserMessage = { kind: 'user', id: newMessageId(), createdAt: new Date().toISOString(), text };
    const history = this.current()?.messages ?? [];
    await this.save(conversationId, user);
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversationId), conversationId, history, user, signal));
  }

  /** Answers the user message before a failed or stopped assistant message again, in place. */
  async retry(messageId: string): Promise<void> {
    const conversation = this.current();
    const index = conversation?.messages.findIndex((m) => m.id === messageId) ?? -1;
    const user = conversation?.messages.slice(0, index).reverse().find((m): m is UserMessage => m.kind === 'user');
    if (!conversation || index < 0 || !user) return this.deps.post({ type: 'error/show', message: 'Nothing to retry.' });
    const history = conversation.messages.slice(0, conversation.messages.indexOf(user));
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversation.id), conversation.id, history, user, signal, messageId));
  }

  async runAgent(promptId: string, rawInputs: Record<string, unknown>): Promise<void> {
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: unavailable ?? 'Action prompts are not available.' });
    const entry = engine.catalog.entry(promptId);
    if (!entry?.prompt) {
      const why = entry ? entry.diagnostics.map(formatDiagnostic).join('\n') : `unknown action prompt "${promptId}"`;
      return this.deps.post({ type: 'error/show', message: `Cannot run ${promptId}: ${why}` });
    }
    let inputs: Record<string, unknown>;
    try {
      inputs = await resolveRunInputs(entry.prompt, rawInputs, engine.workspace);
    } catch (error) {
      const message = error instanceof ActionPromptError ? error.diagnostics.map((d) => d.message).join('\n') : (error as Error).message;
      return this.deps.post({ type: 'error/show', message });
    }
    const conversationId = await this.ensureConversation(entry.prompt.title);
    await this.withAbort((signal) =>
      runAgentTurn({ engine, save: (m) => this.save(conversationId, m), post: this.deps.post, runLogDir: this.deps.runLogDir }, conversationId, entry.prompt!, inputs, signal),
    );
  }

  stop(): void {
    this.inFlight?.abort();
  }

  async newConversation(): Promise<void> {
    this.stop();
    this.conversationId = undefined;
    await this.deps.history.setOpenConversationId(undefined);
  }

  async open(id: string): Promise<Conversation | undefined> {
    const conversation = this.deps.history.getConversation(id);
    if (!conversation) return undefined;
    this.stop();
    this.conversationId = id;
    await this.deps.history.setOpenConversationId(id);
    return conversation;
  }

  private async ensureConversation(titleHint: string): Promise<string> {
    if (this.conversationId && this.deps.history.getConversation(this.conversationId)) return this.conversationId;
    const conversation = await this.deps.history.createConversation(titleHint.slice(0, 80));
    this.conversationId = conversation.id;
    await this.deps.history.setOpenConversationId(conversation.id);
    return conversation.id;
  }

  /** One turn at a time: a new turn stops the previous one first. */
  private async withAbort<T>(turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    try {
      return await turn(controller.signal);
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /** A failed write is shown, and the message stays in memory for the store to retry. */
  private async save(conversationId: string, message: ChatMessage): Promise<void> {
    if (isInFlight(message)) this.live = message;
    else if (this.live?.id === message.id) this.live = undefined;
    try {
      await this.deps.history.upsertMessage(conversationId, message);
    } catch (error) {
      this.deps.post({ type: 'error/show', message: `Not saved: ${(error as Error).message}` });
    }
  }

  private chatDeps(conversationId: string) {
    const models = this.deps.models();
    return {
      model: () => models.model('main'),
      modelName: models.modelName('main'),
      describeError: (error: unknown) => models.describeError(error, 'main'),
      save: (message: ChatMessage) => this.save(conversationId, message),
      post: this.deps.post,
    };
  }
}

function isInFlight(message: ChatMessage): boolean {
  return (message.kind === 'assistant' && message.status === 'streaming') || (message.kind === 'agent-run' && message.status === 'running');
}
