import { readFile } from 'node:fs/promises';
import { ActionPromptError, formatDiagnostic } from '../actionPrompt/diagnostics';
import { resolveRunInputs } from '../actionPrompt/runInputs';
import { ConversationApprovals, type ToolProtocolMemory } from '../agent';
import type { CodewikiEngine } from '../codewikiEngine';
import type { AgentContextRef, AgentToolCall, AgentTurnMessage, AgentTurnProgress, ChatMessage, Conversation, UserMessage } from '../history/conversationTypes';
import { newMessageId, type StateManager } from '../history';
import type { ModelProvider } from '../llm/modelProvider';
import type { ApprovalAnswer, ApprovalPrompt, ContextAttachment, ToolsState } from '../../shared/protocol';
import { DEFAULT_AGENT_MODE_SETTINGS, type AgentModeSettings } from './agentModeSettings';
import { runAgentModeTurn } from './agentModeTurn';
import { runAgentTurn } from './agentTurn';
import { streamAssistantAnswer } from './chatTurn';
import { applyUnifiedDiff } from './proposedContent';
import { SessionAgents } from './sessionAgents';
import { SessionApprovalGate } from './sessionApprovalGate';
import type { SessionListener } from './sessionEvents';
import { toolsState } from './toolList';
import { AttachmentError, buildTurnContext, type TurnContext } from './turnContext';

export interface SessionDeps {
  history: StateManager;
  /** Read on every turn, so settings and key changes apply to the next request. */
  models(): ModelProvider;
  /** The engine for the current workspace; undefined when action prompts are unavailable (with the reason). */
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  runLogDir: string;
  post: SessionListener;
  /**
   * Agent mode's user-level settings, read on every turn. Return the same object until the settings
   * change: the agent (and its tool definitions) is rebuilt only when this or the engine changes.
   */
  agentSettings?(): AgentModeSettings;
  /** Where `toolProtocol: auto` remembers its switches to the text protocol (the extension keeps it in global storage). */
  toolProtocolMemory?: ToolProtocolMemory;
}

/** What goes with an agent-mode (or chat-mode) question besides its text. */
export interface SendOptions {
  /** Workspace-relative path of the file open in the editor; the agent is told its name. */
  openFile?: string;
  /** The editor's selection, when the question says `#selection`. */
  selection?: { path: string; startLine: number; endLine: number };
  /** Chips: files and selections whose content goes with the question. */
  attachments?: ContextAttachment[];
  /** `@tool` mentions (agent mode only): each is forced on one of the first model calls. */
  mentions?: string[];
}

/** A pending approval's file change, for VS Code's diff editor. */
export interface ProposedChange {
  /** As the preview names it (workspace-relative for the primary folder). */
  path: string;
  /** The file on disk; undefined when the change creates it. */
  absolutePath?: string;
  proposed: string;
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
  /** "Allow in this conversation" answers, for as long as this session (the window) lives. */
  private readonly approvalMemory = new ConversationApprovals();
  private readonly gate: SessionApprovalGate;
  private activeTurn: { conversationId: string; turnId: string } | undefined;
  private readonly agents: SessionAgents;

  constructor(private readonly deps: SessionDeps) {
    this.conversationId = deps.history.getOpenConversationId();
    this.gate = new SessionApprovalGate(deps.post, (conversationId) => (this.activeTurn?.conversationId === conversationId ? this.activeTurn.turnId : undefined));
    this.agents = new SessionAgents(this.gate, this.approvalMemory, deps.toolProtocolMemory);
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

  /** A plain answer. Attached files and `#selection` go to the model with the question (read through the workspace's file policy). */
  async sendChat(text: string, options: Omit<SendOptions, 'mentions' | 'openFile'> = {}): Promise<void> {
    let questionForModel: string | undefined;
    if (options.attachments?.length || options.selection) {
      const context = await this.readContext(text, options);
      if (!context) return;
      questionForModel = context.question;
    }
    const conversationId = await this.ensureConversation(text);
    const user: UserMessage = { kind: 'user', id: newMessageId(), createdAt: new Date().toISOString(), text };
    const history = this.current()?.messages ?? [];
    await this.save(conversationId, user);
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversationId), conversationId, history, user, signal, undefined, questionForModel));
  }

  /**
   * An agent-mode answer: the model may call the workspace's tools, write and execute calls wait for
   * the user's approval (`answerApproval`), and the turn is saved as it happens. Refused, with
   * nothing saved, when the workspace's tools are unavailable (Restricted Mode, no folder) or an
   * attachment cannot be read.
   */
  async sendAgent(text: string, options: SendOptions = {}): Promise<void> {
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: agentModeUnavailable(unavailable) });
    const context = await this.readContext(text, options, engine);
    if (!context) return;
    const conversationId = await this.ensureConversation(text);
    const user: UserMessage = { kind: 'user', id: newMessageId(), createdAt: new Date().toISOString(), text };
    const history = this.current()?.messages ?? [];
    await this.save(conversationId, user);
    await this.runAgentMode(engine, conversationId, { user, history, question: context.question, context: context.refs, mentions: cleanMentions(options.mentions), openFile: options.openFile });
  }

  /** Answers the user message before a failed or stopped answer (chat or agent mode) again, in place. */
  async retry(messageId: string): Promise<void> {
    const conversation = this.current();
    const index = conversation?.messages.findIndex((m) => m.id === messageId) ?? -1;
    const user = conversation?.messages.slice(0, index).reverse().find((m): m is UserMessage => m.kind === 'user');
    if (!conversation || index < 0 || !user) return this.deps.post({ type: 'error/show', message: 'Nothing to retry.' });
    const history = conversation.messages.slice(0, conversation.messages.indexOf(user));
    const target = conversation.messages[index]!;
    if (target.kind === 'agent-turn') return this.retryAgentTurn(conversation.id, target, user, history);
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversation.id), conversation.id, history, user, signal, messageId));
  }

  /** The webview's answer to an `agent/approval` card. */
  answerApproval(approvalId: string, decision: ApprovalAnswer, reason?: string): void {
    if (!this.gate.answer(approvalId, decision, reason)) this.deps.post({ type: 'error/show', message: 'That approval is no longer waiting (the turn ended or was stopped).' });
  }

  /** Approvals still waiting, for a view that was re-created while a turn waits. */
  pendingApprovals(): ApprovalPrompt[] {
    return this.gate.prompts();
  }

  /** The file as the waiting approval's change would leave it. Throws when there is no such diff or the file changed since. */
  async proposedChange(approvalId: string): Promise<ProposedChange> {
    const request = this.gate.waiting(approvalId);
    if (!request) throw new Error('That approval is no longer waiting.');
    if (request.preview.type !== 'diff') throw new Error(`${request.displayName} does not change a file; there is no diff to show.`);
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) throw new Error(unavailable ?? 'Workspace files are not available.');
    const { path, action, diff } = request.preview;
    if (action === 'create') return { path, proposed: applyUnifiedDiff('', diff) };
    const target = await engine.workspace.resolve(path);
    return { path, absolutePath: target.absolute, proposed: applyUnifiedDiff(await readFile(target.absolute, 'utf8'), diff) };
  }

  /** The tool picker's state: the workspace's tools under the user's toggles. */
  async toolsState(): Promise<ToolsState> {
    const { engine, unavailable } = await this.deps.engine();
    return toolsState(engine?.agentRegistry, this.agentSettings().toggles, unavailable);
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

  /** Stops the turn in flight; a waiting approval ends as an abort (the call does not run). */
  stop(): void {
    this.inFlight?.abort();
    this.gate.cancelAll();
  }

  /** Deletes a conversation (to trash) and forgets its "allow in this conversation" answers. Returns whether it was the open one. */
  async deleteConversation(id: string): Promise<boolean> {
    const wasOpen = this.conversationId === id;
    if (wasOpen) this.stop();
    await this.deps.history.delete(id);
    this.approvalMemory.forget(id);
    if (wasOpen) await this.newConversation();
    return wasOpen;
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

  private async retryAgentTurn(conversationId: string, turn: AgentTurnMessage, user: UserMessage, history: ChatMessage[]): Promise<void> {
    if (turn.status === 'streaming') return this.deps.post({ type: 'error/show', message: 'That answer is still running; stop it first.' });
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: agentModeUnavailable(unavailable) });
    const context = await this.readContext(user.text, { attachments: (turn.context ?? []).map(attachmentOf) }, engine);
    if (!context) return;
    await this.runAgentMode(engine, conversationId, { user, history, question: context.question, context: context.refs, mentions: turn.mentions ?? [], openFile: turn.openFile, reuseId: turn.id });
  }

  private async runAgentMode(
    engine: CodewikiEngine,
    conversationId: string,
    request: { user: UserMessage; history: ChatMessage[]; question: string; context: AgentContextRef[]; mentions: string[]; openFile?: string; reuseId?: string },
  ): Promise<void> {
    const settings = this.agentSettings();
    await this.withAbort(async (signal) => {
      const deps = {
        agent: () => this.agents.agent(engine, settings),
        describeError: (error: unknown) => engine.models.describeError(error, 'main'),
        save: (message: ChatMessage) => {
          if (message.kind === 'agent-turn') this.activeTurn = { conversationId, turnId: message.id };
          return this.save(conversationId, message);
        },
        saveCall: (turnId: string, call: AgentToolCall, progress: AgentTurnProgress) => this.saveCall(conversationId, turnId, call, progress),
        post: this.deps.post,
        notes: this.agents.notes(engine, settings),
      };
      try {
        await runAgentModeTurn(deps, { conversationId, ...request }, signal);
      } finally {
        if (this.activeTurn?.conversationId === conversationId) this.activeTurn = undefined;
      }
    });
  }

  private agentSettings(): AgentModeSettings {
    return this.deps.agentSettings?.() ?? DEFAULT_AGENT_MODE_SETTINGS;
  }

  /** The question with its attachments read, or undefined after telling the user why it cannot be sent. */
  private async readContext(text: string, options: SendOptions, engine?: CodewikiEngine): Promise<TurnContext | undefined> {
    const attachments = [...(options.attachments ?? []), ...(options.selection ? [{ kind: 'selection' as const, ...options.selection }] : [])];
    if (attachments.length === 0) return { question: text, refs: [] };
    const workspace = (engine ?? (await this.deps.engine()).engine)?.workspace;
    try {
      return await buildTurnContext(text, attachments, workspace);
    } catch (error) {
      if (!(error instanceof AttachmentError)) throw error;
      this.deps.post({ type: 'error/show', message: error.message });
      return undefined;
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

  /** One call of the agent turn in flight; like `save`, a failed write is shown and retried by the store. */
  private async saveCall(conversationId: string, turnId: string, call: AgentToolCall, progress: AgentTurnProgress): Promise<void> {
    try {
      await this.deps.history.appendAgentCall(conversationId, turnId, call, progress);
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
  return (
    (message.kind === 'assistant' && message.status === 'streaming') ||
    (message.kind === 'agent-run' && message.status === 'running') ||
    (message.kind === 'agent-turn' && message.status === 'streaming')
  );
}

function agentModeUnavailable(why: string | undefined): string {
  return `Agent mode cannot run here: ${why ?? 'the workspace tools are not available.'} Chat mode still answers without workspace tools.`;
}

/** `@name` or `name`, each once, in order. */
function cleanMentions(mentions: string[] | undefined): string[] {
  return [...new Set((mentions ?? []).map((mention) => mention.replace(/^@/, '')).filter(Boolean))];
}

function attachmentOf(ref: AgentContextRef): ContextAttachment {
  return ref.kind === 'selection' && ref.startLine !== undefined ? { kind: 'selection', path: ref.path, startLine: ref.startLine, endLine: ref.endLine ?? ref.startLine } : { kind: 'file', path: ref.path };
}
