import type { AgentLoop } from '../agent/agentLoop';
import type { ChatMessage } from '../history/conversationTypes';
import { agentRunRequest, windowedHistory, type AgentModeTurnRequest } from './agentModeTurn';

/**
 * One draft computed ahead at a time. A question the user has stopped typing is sent to the local model as its
 * first request would be (AgentLoop.warmQuestion), stopped at the first token: pressed Enter, the same request finds
 * its whole prompt in llama-server's cache and the answer starts at once, instead of after the 300–450 tokens of
 * question and matches (5–8 s on 2 cores). A newer draft stops the one in flight; a turn or the fixed prompt's
 * warm-up stops it too, and also every draft asked for before it that is still on its way (reading attachments).
 */
export class DraftWarmup {
  private running: { controller: AbortController; key: string } | undefined;
  /** Bumped whenever the server is needed for something else: a draft asked for before that gives up. */
  private epoch = 0;
  private holds = 0;

  /** What a draft holds while it gets ready (engine, attachments): `warm` refuses it if anything took the server since. */
  ticket(): number {
    return this.epoch;
  }

  /**
   * Runs `compute` unless the server was needed since `ticket`. Resolves true when it ran to the end, false when it
   * was refused or stopped; a failure rejects (the caller logs it: the question then computes its own prompt).
   */
  async warm(ticket: number, key: string, compute: (signal: AbortSignal) => Promise<void>): Promise<boolean> {
    if (ticket !== this.epoch || this.holds > 0) return false;
    this.running?.controller.abort();
    const controller = new AbortController();
    this.running = { controller, key };
    try {
      await compute(controller.signal);
      return !controller.signal.aborted;
    } catch (error) {
      if (controller.signal.aborted) return false;
      throw error;
    } finally {
      if (this.running?.controller === controller) this.running = undefined;
    }
  }

  /**
   * Stops every draft asked for before now and the one in flight: a question is on its way and needs the server.
   * Not the one in flight for `sent` (the question's own draft key): the question's request waits for it on the
   * server's one slot and then finds the prompt it was computing, where a stopped draft's work would be lost.
   */
  stop(sent?: string): void {
    this.epoch++;
    if (sent !== undefined && this.running?.key === sent) return;
    this.running?.controller.abort();
    this.running = undefined;
  }

  /**
   * Runs `work` with no draft before or during it: the fixed prompt's warm-up restores the server's slot, computes
   * the prompt and saves the slot to disk, and a draft in between would be lost, or saved there with it.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.stop();
    this.holds++;
    try {
      return await work();
    } finally {
      this.holds--;
    }
  }
}

/** A draft as the question it would be: what `sendAgent` would hand the agent for it. */
export interface DraftQuestion extends Pick<AgentModeTurnRequest, 'question' | 'context' | 'mentions' | 'openFile'> {
  /** The composer's text (the question without its attachments read). */
  text: string;
  /** The conversation so far, as the question would find it. */
  history: ChatMessage[];
  conversationId?: string;
}

/** Computes the first request of `draft` on the server (agentRunRequest, as the turn builds it) and stops at its first token. */
export async function computeDraft(
  agent: AgentLoop,
  draft: DraftQuestion,
  contextWindow: () => Promise<number | undefined>,
  signal: AbortSignal,
): Promise<void> {
  const history = await windowedHistory(draft.history, contextWindow);
  const request = {
    ...draft,
    conversationId: draft.conversationId ?? 'draft',
    user: { kind: 'user' as const, id: 'draft', createdAt: '', text: draft.text },
  };
  await agent.warmQuestion(agentRunRequest(request, history.messages, signal));
}

/** What a draft's request depends on besides the conversation: the same for a draft and for the question it becomes. */
export function draftKey(text: string, options: { attachments?: unknown[]; mentions?: string[]; openFile?: string; selection?: unknown }): string {
  return JSON.stringify([text, options.attachments ?? [], options.mentions ?? [], options.openFile ?? null, options.selection ?? null]);
}
