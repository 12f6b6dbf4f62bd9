import type { AgentLoop } from '../agent/agentLoop';
import type { ChatMessage } from '../history/conversationTypes';
import { agentRunRequest, windowedHistory, type AgentModeTurnRequest } from './agentModeTurn';

/**
 * One draft computed ahead at a time. A question the user has stopped typing is sent to the local model as its
 * first request would be (AgentLoop.warmQuestion), stopped at the first token: pressed Enter, the same request finds
 * its whole prompt in llama-server's cache and the answer starts at once, instead of after the 300–450 tokens of
 * question and matches (5–8 s on 2 cores). Only the latest draft asked for runs, and none while a turn or the fixed
 * prompt's warm-up has the server (`hold`): each stops the draft in flight, and every draft still on its way
 * (reading attachments) gives up.
 */
export class DraftWarmup {
  private running: { controller: AbortController; key: string } | undefined;
  /** Bumped whenever the server is needed for something else: a draft asked for before that gives up. */
  private epoch = 0;
  /** Drafts asked for so far: only the latest may run (an older one can finish reading its attachments last). */
  private asked = 0;
  private holds = 0;

  /** What a draft holds while it gets ready (engine, attachments): `warm` refuses it if a newer one was asked for, or anything took the server. */
  ticket(): DraftTicket {
    return { epoch: this.epoch, draft: ++this.asked };
  }

  /**
   * Runs `compute` unless the server was needed since `ticket` or a newer draft was asked for. Resolves true when it
   * ran to the end, false when it was refused or stopped; a failure rejects (the caller logs it: the question then
   * computes its own prompt).
   */
  async warm(ticket: DraftTicket, key: string, compute: (signal: AbortSignal) => Promise<void>): Promise<boolean> {
    if (ticket.epoch !== this.epoch || ticket.draft !== this.asked || this.holds > 0) return false;
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

  /** Stops every draft: the one in flight and those on their way (the user stopped, or left the conversation). */
  stop(): void {
    this.epoch++;
    this.running?.controller.abort();
    this.running = undefined;
  }

  /**
   * Runs `work` (a turn, or the fixed prompt's warm-up, which restores the server's slot, computes the prompt and
   * saves the slot to disk) with no draft before or during it: a draft would take the server's one slot from it, or
   * be saved to disk with the prompt. Except the draft in flight for `keep` (the question's own, by draftKey): the
   * question's request waits for it on that slot and then finds the prompt it was computing, where a stopped draft's
   * work would be lost.
   */
  async hold<T>(work: () => Promise<T>, keep?: string): Promise<T> {
    this.epoch++;
    if (keep === undefined || this.running?.key !== keep) {
      this.running?.controller.abort();
      this.running = undefined;
    }
    this.holds++;
    try {
      return await work();
    } finally {
      this.holds--;
    }
  }
}

/** See DraftWarmup.ticket. */
export interface DraftTicket {
  epoch: number;
  draft: number;
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
