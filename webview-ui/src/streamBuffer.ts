import type { ChatMessage } from '../../src/shared/protocol';
import type { Store } from './state';

/** Runs a callback before the next paint (`requestAnimationFrame` in the page, a manual tick in tests). */
export type FrameScheduler = (callback: () => void) => void;

/**
 * Coalesces stream chunks per animation frame: a fast model can send hundreds of chunks a second,
 * but the user only sees one frame at a time, so each message renders at most once per frame.
 */
export class StreamBuffer {
  private readonly pending = new Map<string, string>();
  private scheduled = false;

  constructor(
    private readonly store: Store,
    private readonly schedule: FrameScheduler,
  ) {}

  push(messageId: string, text: string): void {
    this.pending.set(messageId, (this.pending.get(messageId) ?? '') + text);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Applies every buffered chunk now; called before a done message so no text arrives after it. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    for (const [id, text] of batch) this.store.patchMessage(id, (message) => appendText(message, text));
  }

  /** Drops buffered text, e.g. when another conversation replaces the one being streamed. */
  clear(): void {
    this.pending.clear();
  }
}

function appendText(message: ChatMessage, text: string): ChatMessage {
  if (message.kind === 'assistant') return { ...message, text: message.text + text };
  if (message.kind === 'agent-run') return { ...message, answer: message.answer + text };
  return message;
}
