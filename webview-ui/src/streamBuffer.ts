import type { ChatMessage } from '../../src/shared/protocol';
import type { Store } from './state';

/** Runs a callback before the next paint (`requestAnimationFrame` in the page, a manual tick in tests). */
export type FrameScheduler = (callback: () => void) => void;

export type MessageChange = (message: ChatMessage) => ChatMessage;

/**
 * Coalesces stream chunks per animation frame: a fast model can send hundreds of chunks a second,
 * but the user only sees one frame at a time, so each message renders at most once per frame.
 * An agent turn's thinking and its other streamed changes (tool calls, usage) are batched the same way.
 */
export class StreamBuffer {
  private readonly pending = new Map<string, string>();
  /** A reasoning model's thinking, kept apart from the answer. */
  private readonly pendingReasoning = new Map<string, string>();
  private readonly pendingChanges = new Map<string, MessageChange[]>();
  private scheduled = false;

  constructor(
    private readonly store: Store,
    private readonly schedule: FrameScheduler,
  ) {}

  push(messageId: string, text: string): void {
    this.pending.set(messageId, (this.pending.get(messageId) ?? '') + text);
    this.scheduleFlush();
  }

  /** A reasoning model's thinking for a chat answer, an /agent run or an agent turn. */
  pushReasoning(messageId: string, text: string): void {
    this.pendingReasoning.set(messageId, (this.pendingReasoning.get(messageId) ?? '') + text);
    this.scheduleFlush();
  }

  /** Any other change that can wait for the frame, applied in the order it came (e.g. a tool call's progress). */
  pushChange(messageId: string, change: MessageChange): void {
    const changes = this.pendingChanges.get(messageId);
    if (changes) changes.push(change);
    else this.pendingChanges.set(messageId, [change]);
    this.scheduleFlush();
  }

  /** Applies everything buffered now, one update per message; called before a done message so nothing arrives after it. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0 && this.pendingReasoning.size === 0 && this.pendingChanges.size === 0) return;
    const text = new Map(this.pending);
    const reasoning = new Map(this.pendingReasoning);
    const changes = new Map(this.pendingChanges);
    this.clear();
    for (const id of new Set([...changes.keys(), ...text.keys(), ...reasoning.keys()])) {
      this.store.patchMessage(id, (message) => {
        let next = message;
        for (const change of changes.get(id) ?? []) next = change(next);
        const chunk = text.get(id);
        if (chunk) next = appendText(next, chunk);
        const thought = reasoning.get(id);
        if (thought && next.kind !== 'user') next = { ...next, reasoning: (next.reasoning ?? '') + thought };
        return next;
      });
    }
  }

  /** Drops what is buffered, e.g. when another conversation replaces the one being streamed. */
  clear(): void {
    this.pending.clear();
    this.pendingReasoning.clear();
    this.pendingChanges.clear();
  }

  private scheduleFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }
}

function appendText(message: ChatMessage, text: string): ChatMessage {
  if (message.kind === 'assistant') return { ...message, text: message.text + text };
  if (message.kind === 'prompt-run' || message.kind === 'agent-turn') return { ...message, answer: message.answer + text };
  return message;
}
