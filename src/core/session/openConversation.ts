import type { AgentToolCall, AgentTurnProgress, ChatMessage, Conversation } from '../history/conversationTypes';
import type { StateManager } from '../history';
import type { SessionListener } from './sessionEvents';

/**
 * Which conversation the sidebar shows, and the message being streamed into it. Turns mutate that
 * message as tokens and steps arrive but save it only at milestones, so a view that is re-created
 * mid-turn (sidebar closed and reopened) is given this live copy rather than the last saved one.
 */
export class OpenConversation {
  private id: string | undefined;
  private live: ChatMessage | undefined;

  constructor(
    private readonly history: StateManager,
    private readonly post: SessionListener,
  ) {
    this.id = history.getOpenConversationId();
  }

  isOpen(id: string): boolean {
    return this.id === id;
  }

  current(): Conversation | undefined {
    const conversation = this.id ? this.history.getConversation(this.id) : undefined;
    const index = conversation && this.live ? conversation.messages.findIndex((m) => m.id === this.live!.id) : -1;
    if (conversation && index >= 0) conversation.messages[index] = structuredClone(this.live!);
    return conversation;
  }

  /** The open conversation's id; a new conversation, titled from the hint, when none is open or it was deleted. */
  async ensure(titleHint: string): Promise<string> {
    if (this.id && this.history.getConversation(this.id)) return this.id;
    const conversation = await this.history.createConversation(titleHint.slice(0, 80));
    await this.switchTo(conversation.id);
    return conversation.id;
  }

  /** Opens a conversation, or none; the store remembers which for the next window. */
  async switchTo(id: string | undefined): Promise<void> {
    this.id = id;
    await this.history.setOpenConversationId(id);
  }

  /** A failed write is shown, and the message stays in memory for the store to retry. */
  async save(conversationId: string, message: ChatMessage): Promise<void> {
    if (isInFlight(message)) this.live = message;
    else if (this.live?.id === message.id) this.live = undefined;
    try {
      await this.history.upsertMessage(conversationId, message);
    } catch (error) {
      this.post({ type: 'error/show', message: `Not saved: ${(error as Error).message}` });
    }
  }

  /** One call of the agent turn in flight; like `save`, a failed write is shown and retried by the store. */
  async saveCall(conversationId: string, turnId: string, call: AgentToolCall, progress: AgentTurnProgress): Promise<void> {
    try {
      await this.history.appendAgentCall(conversationId, turnId, call, progress);
    } catch (error) {
      this.post({ type: 'error/show', message: `Not saved: ${(error as Error).message}` });
    }
  }
}

function isInFlight(message: ChatMessage): boolean {
  return (
    (message.kind === 'assistant' && message.status === 'streaming') ||
    (message.kind === 'prompt-run' && message.status === 'running') ||
    (message.kind === 'agent-turn' && message.status === 'streaming')
  );
}
