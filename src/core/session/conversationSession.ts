import type { Conversation } from '../history/conversationTypes';
import type { ApprovalAnswer, ApprovalPrompt, ToolsState } from '../../shared/protocol';
import { warmAgentPrefix, type PrefixWarmth } from '../agent/prefixWarmup';
import { OpenConversation } from './openConversation';
import { SessionAgents } from './sessionAgents';
import { SessionApprovals, type ProposedChange } from './sessionApprovals';
import { agentSettingsOf, type SessionDeps } from './sessionDeps';
import { SessionTurns, type SendOptions } from './sessionTurns';
import { toolsState } from './toolList';

export type { SessionDeps } from './sessionDeps';
export type { SendOptions } from './sessionTurns';
export type { ProposedChange } from './sessionApprovals';

/**
 * The conversation the sidebar shows, and the one turn that may be in flight. Plain chats and
 * /agent runs go through the same save path, so both always land in history. Nothing here knows
 * about VS Code: the extension forwards webview messages, tests drive it directly.
 */
export class ConversationSession {
  private readonly conversation: OpenConversation;
  private readonly approvals: SessionApprovals;
  private readonly turns: SessionTurns;

  private readonly agents: SessionAgents;

  constructor(private readonly deps: SessionDeps) {
    this.conversation = new OpenConversation(deps.history, deps.post);
    this.approvals = new SessionApprovals(deps.post);
    this.agents = new SessionAgents(this.approvals.gate, this.approvals.memory, deps.toolProtocolMemory);
    this.turns = new SessionTurns(deps, this.conversation, this.approvals, this.agents);
  }

  /**
   * Puts agent mode's fixed prompt (system prompt and tools, for the current settings) into a local llama-server's
   * prompt cache ahead of the first question: restored from disk when saved before, computed and saved otherwise.
   * Nothing is sent to other servers (undefined), nor without a workspace or a model.
   */
  warmPromptCache(signal?: AbortSignal): Promise<PrefixWarmth | undefined> {
    return this.turns.withoutDrafts(() => this.warmPrefix(signal));
  }

  private async warmPrefix(signal?: AbortSignal): Promise<PrefixWarmth | undefined> {
    const { engine } = await this.deps.engine();
    if (!engine) return undefined;
    const settings = agentSettingsOf(this.deps);
    if (settings.mode !== 'agent') return undefined;
    let agent;
    try {
      agent = this.agents.agent(engine, settings);
    } catch {
      return undefined; // no model configured: the first turn says so
    }
    return warmAgentPrefix(agent, engine.models.promptCacheSlots?.('main'), engine.workspace.root, engine.models.modelName('main'), signal);
  }

  current(): Conversation | undefined {
    return this.conversation.current();
  }

  get busy(): boolean {
    return this.turns.busy;
  }

  /** A plain answer. Attached files and `#selection` go to the model with the question (read through the workspace's file policy). */
  sendChat(text: string, options: Omit<SendOptions, 'mentions' | 'openFile'> = {}): Promise<void> {
    return this.turns.sendChat(text, options);
  }

  /**
   * An agent-mode answer: the model may call the workspace's tools, write and execute calls wait for
   * the user's approval (`answerApproval`), and the turn is saved as it happens. Refused, with
   * nothing saved, when the workspace's tools are unavailable (Restricted Mode, no folder) or an
   * attachment cannot be read.
   */
  sendAgent(text: string, options: SendOptions = {}): Promise<void> {
    return this.turns.sendAgent(text, options);
  }

  /**
   * Computes the agent-mode question `text` ahead of Enter on a llama-server on this machine (the composer sends
   * it when the user pauses typing), so its answer starts at once. Nothing is saved or shown; resolves whether it
   * was computed; rejects when the server failed (worth a line in a log, never in the chat).
   */
  warmDraft(text: string, options: SendOptions = {}): Promise<boolean> {
    return this.turns.warmDraft(text, options);
  }

  /** Answers the user message before a failed or stopped answer (chat or agent mode) again, in place. */
  retry(messageId: string): Promise<void> {
    return this.turns.retry(messageId);
  }

  /** The webview's answer to an `agent/approval` card. */
  answerApproval(approvalId: string, decision: ApprovalAnswer, reason?: string): void {
    this.approvals.answer(approvalId, decision, reason);
  }

  /** Approvals still waiting, for a view that was re-created while a turn waits. */
  pendingApprovals(): ApprovalPrompt[] {
    return this.approvals.prompts();
  }

  /** The file as the waiting approval's change would leave it. Throws when there is no such diff or the file changed since. */
  proposedChange(approvalId: string): Promise<ProposedChange> {
    return this.approvals.proposedChange(approvalId, () => this.deps.engine());
  }

  /** The tool picker's state: the workspace's tools under the user's toggles. */
  async toolsState(): Promise<ToolsState> {
    const { engine, unavailable } = await this.deps.engine();
    return toolsState(engine?.agentRegistry, agentSettingsOf(this.deps).toggles, unavailable);
  }

  runPrompt(promptId: string, rawInputs: Record<string, unknown>): Promise<void> {
    return this.turns.runActionPrompt(promptId, rawInputs);
  }

  /** Stops the turn in flight; a waiting approval ends as an abort (the call does not run). */
  stop(): void {
    this.turns.stop();
    this.approvals.cancelAll();
  }

  /** Deletes a conversation (to trash) and forgets its "allow in this conversation" answers. Returns whether it was the open one. */
  async deleteConversation(id: string): Promise<boolean> {
    const wasOpen = this.conversation.isOpen(id);
    if (wasOpen) this.stop();
    await this.deps.history.delete(id);
    this.approvals.forget(id);
    if (wasOpen) await this.newConversation();
    return wasOpen;
  }

  async newConversation(): Promise<void> {
    this.stop();
    await this.conversation.switchTo(undefined);
  }

  async open(id: string): Promise<Conversation | undefined> {
    const conversation = this.deps.history.getConversation(id);
    if (!conversation) return undefined;
    this.stop();
    await this.conversation.switchTo(id);
    return conversation;
  }
}
