import { readFile } from 'node:fs/promises';
import { ConversationApprovals } from '../agent';
import type { ApprovalAnswer, ApprovalPrompt } from '../../shared/protocol';
import { applyUnifiedDiff } from './proposedContent';
import { SessionApprovalGate } from './sessionApprovalGate';
import type { SessionDeps } from './sessionDeps';
import type { SessionListener } from './sessionEvents';

/** A pending approval's file change, for VS Code's diff editor. */
export interface ProposedChange {
  /** As the preview names it (workspace-relative for the primary folder). */
  path: string;
  /** The file on disk; undefined when the change creates it. */
  absolutePath?: string;
  proposed: string;
}

/**
 * The session's approvals: the cards waiting in the chat view, the "allow in this conversation"
 * answers (kept for as long as the session, the window, lives), and the agent turn new cards belong to.
 */
export class SessionApprovals {
  readonly memory = new ConversationApprovals();
  readonly gate: SessionApprovalGate;
  private activeTurn: { conversationId: string; turnId: string } | undefined;

  constructor(private readonly post: SessionListener) {
    this.gate = new SessionApprovalGate(post, (conversationId) => (this.activeTurn?.conversationId === conversationId ? this.activeTurn.turnId : undefined));
  }

  /** The agent turn saved last in the conversation: the cards asked from now on belong to it. */
  turnSaved(conversationId: string, turnId: string): void {
    this.activeTurn = { conversationId, turnId };
  }

  turnEnded(conversationId: string): void {
    if (this.activeTurn?.conversationId === conversationId) this.activeTurn = undefined;
  }

  answer(approvalId: string, decision: ApprovalAnswer, reason?: string): void {
    if (!this.gate.answer(approvalId, decision, reason))
      this.post({ type: 'error/show', message: 'That approval is no longer waiting (the turn ended or was stopped).' });
  }

  prompts(): ApprovalPrompt[] {
    return this.gate.prompts();
  }

  /** The file as the waiting approval's change would leave it. Throws when there is no such diff or the file changed since. */
  async proposedChange(approvalId: string, engines: SessionDeps['engine']): Promise<ProposedChange> {
    const request = this.gate.waiting(approvalId);
    if (!request) throw new Error('That approval is no longer waiting.');
    if (request.preview.type !== 'diff') throw new Error(`${request.displayName} does not change a file; there is no diff to show.`);
    const { engine, unavailable } = await engines();
    if (!engine) throw new Error(unavailable ?? 'Workspace files are not available.');
    const { path, action, diff } = request.preview;
    if (action === 'create') return { path, proposed: applyUnifiedDiff('', diff) };
    const target = await engine.workspace.resolve(path);
    return { path, absolutePath: target.absolute, proposed: applyUnifiedDiff(await readFile(target.absolute, 'utf8'), diff) };
  }

  /** A waiting approval ends as an abort: the call does not run. */
  cancelAll(): void {
    this.gate.cancelAll();
  }

  forget(conversationId: string): void {
    this.memory.forget(conversationId);
  }
}
