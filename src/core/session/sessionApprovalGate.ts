import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../agent/approvalGate';
import { abortReason } from '../util/abort';
import type { ApprovalAnswer, ApprovalPrompt } from '../../shared/protocol';
import { capPreview } from './agentTurnRecorder';
import type { SessionListener } from './sessionEvents';

/** Longest diff an approval card carries; the diff editor (`editor/diff`) shows the whole change. */
export const CARD_PREVIEW_MAX_CHARS = 64 * 1024;

interface PendingApproval {
  request: ApprovalRequest;
  prompt: ApprovalPrompt;
  answer(decision: ApprovalDecision): void;
  cancel(): void;
}

/**
 * The approval card in the chat view: `request` posts `agent/approval` and waits for the webview's
 * `agent/approve`. Stop (the turn's signal, or `cancelAll`) rejects a waiting request with an abort
 * error, so the loop ends instead of running or denying the call. One gate serves a session; the
 * webview names an approval by the id posted here, never by tool or call, so an answer can only
 * settle a question that was actually asked.
 */
export class SessionApprovalGate implements ApprovalGate {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(
    private readonly post: SessionListener,
    /** The agent turn (message id) running in that conversation. */
    private readonly turnIdFor: (conversationId: string) => string | undefined,
  ) {}

  request(approval: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const approvalId = randomUUID();
    return new Promise<ApprovalDecision>((resolve, reject) => {
      const settle = (outcome: ApprovalAnswer | 'cancelled') => {
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(approvalId);
        this.post({ type: 'agent/approvalSettled', approvalId, callId: approval.callId, outcome });
      };
      const cancel = () => {
        settle('cancelled');
        reject(signal?.aborted ? abortReason(signal) : Object.assign(new Error('The approval was cancelled: the turn was stopped'), { name: 'AbortError' }));
      };
      const onAbort = () => cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      const prompt: ApprovalPrompt = {
        turnId: this.turnIdFor(approval.conversationId) ?? '',
        approvalId,
        callId: approval.callId,
        tool: approval.tool,
        displayName: approval.displayName,
        kind: approval.kind,
        preview: capPreview(approval.preview, CARD_PREVIEW_MAX_CHARS),
        why: approval.why,
        canAllowForConversation: approval.canAllowForConversation,
        ...(approval.parentCallId ? { parentCallId: approval.parentCallId } : {}),
      };
      this.pending.set(approvalId, {
        request: approval,
        prompt,
        answer: (decision) => {
          settle(decision.decision);
          resolve(decision);
        },
        cancel,
      });
      this.post({ type: 'agent/approval', ...prompt });
    });
  }

  /** The user's answer; false when no such approval is waiting (already answered, or stopped). */
  answer(approvalId: string, decision: ApprovalAnswer, reason?: string): boolean {
    const pending = this.pending.get(approvalId);
    if (!pending) return false;
    const trimmed = reason?.trim();
    pending.answer(decision === 'deny' && trimmed ? { decision, reason: trimmed } : { decision });
    return true;
  }

  /** The waiting request, e.g. to show its change in the diff editor. */
  waiting(approvalId: string): ApprovalRequest | undefined {
    return this.pending.get(approvalId)?.request;
  }

  /** The cards still waiting, as posted. */
  prompts(): ApprovalPrompt[] {
    return [...this.pending.values()].map((pending) => structuredClone(pending.prompt));
  }

  get size(): number {
    return this.pending.size;
  }

  /** Stop: every waiting approval ends as an abort. */
  cancelAll(): void {
    for (const pending of [...this.pending.values()]) pending.cancel();
  }
}
