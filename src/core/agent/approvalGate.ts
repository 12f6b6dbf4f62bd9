import type { ToolKind } from '../tools/toolMetadata';
import type { ToolPreview } from '../tools/workspace-write/toolPreview';
import { isAbortError } from '../llm/describeLlmError';
import { throwIfAborted } from '../util/abort';
import type { AgentEventListener, ApprovalDecisionKind, ApprovalSource } from './agentEvents';
import { AutoApprovalPolicy, isCompoundCommand, normalizeCommand } from './autoApprovalPolicy';

/** What the user is asked to approve. The preview is the exact change, worked out before anything ran. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  displayName: string;
  kind: ToolKind;
  args: Record<string, unknown>;
  /** A unified diff for file changes; the command and folder for commands. */
  preview: ToolPreview;
  conversationId: string;
  /** One sentence on why this call asks, for the card or prompt. */
  why: string;
  /** False when "allow in this conversation" would not be remembered (a compound command asks every time). */
  canAllowForConversation: boolean;
  /** Set when a sub-agent makes the call: the id of the parent's call that started the sub-agent. */
  parentCallId?: string;
}

export interface ApprovalDecision {
  decision: ApprovalDecisionKind;
  /** For a denial: passed to the model with the refusal, e.g. "use the staging folder instead". */
  reason?: string;
}

/**
 * Asks the user. The extension implements it with a card in the chat view, the CLI with a y/N
 * prompt on a terminal. It must settle (a denial is an answer) and should reject with an abort
 * error when `signal` fires, e.g. when the user presses Stop while the card is showing.
 */
export interface ApprovalGate {
  request(approval: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision>;
}

/** A gate for runs nobody can answer (no terminal, no UI): every request is denied with `reason`. */
export function denyingGate(reason: string): ApprovalGate {
  return { request: async () => ({ decision: 'deny', reason }) };
}

/**
 * "Allow in this conversation", remembered per conversation and per tool; for command-running
 * tools per command, since approving `npm test` says nothing about `rm -rf`. Keep one instance for
 * as long as conversations live (the extension: per window), so a remembered approval survives
 * the turns of one conversation.
 */
export class ConversationApprovals {
  private readonly allowed = new Map<string, Set<string>>();

  has(conversationId: string, key: string): boolean {
    return this.allowed.get(conversationId)?.has(key) ?? false;
  }

  remember(conversationId: string, key: string): void {
    let keys = this.allowed.get(conversationId);
    if (!keys) this.allowed.set(conversationId, (keys = new Set()));
    keys.add(key);
  }

  forget(conversationId: string): void {
    this.allowed.delete(conversationId);
  }
}

export type ApprovalOutcome = { allowed: true; by: ApprovalSource | 'not-needed' } | { allowed: false; by: ApprovalSource; reason?: string };

export interface ApprovalSubject {
  callId: string;
  /** A sub-agent's call: the id of the call that started the sub-agent. */
  parentCallId?: string;
  tool: string;
  displayName: string;
  kind: ToolKind;
  args: Record<string, unknown>;
  preview: ToolPreview;
}

/**
 * The approval rules: read and think calls run; write and execute calls run when the user's
 * policy or an earlier "allow in this conversation" covers them, and otherwise wait for the gate.
 * Command previews follow the command rules (see AutoApprovalPolicy.autoApproves).
 */
export class ToolApprovals {
  private readonly policy: AutoApprovalPolicy;
  /** Set when the policy passed in was not a genuine AutoApprovalPolicy; reported once as a warning. */
  readonly rejectedPolicy: boolean;

  constructor(
    private readonly gate: ApprovalGate,
    policy: AutoApprovalPolicy = AutoApprovalPolicy.none(),
    readonly memory: ConversationApprovals = new ConversationApprovals(),
  ) {
    this.rejectedPolicy = !AutoApprovalPolicy.isGenuine(policy);
    this.policy = this.rejectedPolicy ? AutoApprovalPolicy.none() : policy;
  }

  /** Notes for the user about settings that were not honoured. */
  get notes(): string[] {
    return this.rejectedPolicy ? ['the auto-approval policy was not built from user settings and was ignored'] : [...this.policy.ignored];
  }

  static needsApproval(kind: ToolKind): boolean {
    return kind === 'write' || kind === 'execute';
  }

  async decide(subject: ApprovalSubject, conversationId: string, emit: AgentEventListener, signal?: AbortSignal): Promise<ApprovalOutcome> {
    if (!ToolApprovals.needsApproval(subject.kind)) return { allowed: true, by: 'not-needed' };
    const command = subject.preview.type === 'command' ? subject.preview.command : undefined;
    const decided = (decision: ApprovalDecisionKind, by: ApprovalSource, reason?: string) =>
      emit({ type: 'approval-decided', id: subject.callId, tool: subject.tool, decision, by, reason });

    if (this.policy.autoApproves({ name: subject.tool, kind: subject.kind }, command)) {
      decided('allow-once', 'policy');
      return { allowed: true, by: 'policy' };
    }
    const compound = command !== undefined && isCompoundCommand(command);
    const key = memoryKey(subject);
    if (!compound && this.memory.has(conversationId, key)) {
      decided('allow-conversation', 'conversation');
      return { allowed: true, by: 'conversation' };
    }

    const why = whyAsk(subject, command, compound);
    emit({ type: 'approval-requested', id: subject.callId, tool: subject.tool, kind: subject.kind, preview: subject.preview, why });
    let answer: ApprovalDecision;
    try {
      answer = await this.gate.request({ ...subject, conversationId, why, canAllowForConversation: !compound }, signal);
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw error;
      answer = { decision: 'deny', reason: `the approval could not be asked (${(error as Error)?.message ?? String(error)})` };
    }
    throwIfAborted(signal);
    decided(answer.decision, 'user', answer.reason);
    if (answer.decision === 'deny') return { allowed: false, by: 'user', reason: answer.reason };
    if (answer.decision === 'allow-conversation' && !compound) this.memory.remember(conversationId, key);
    return { allowed: true, by: 'user' };
  }
}

function memoryKey(subject: ApprovalSubject): string {
  if (subject.preview.type === 'command') return `${subject.tool}\u0000${normalizeCommand(subject.preview.command)}\u0000${subject.preview.cwd}`;
  return subject.tool;
}

function whyAsk(subject: ApprovalSubject, command: string | undefined, compound: boolean): string {
  if (command !== undefined) {
    return compound
      ? 'This command chains, redirects or substitutes commands, so it is always asked about, even when allow-listed.'
      : 'Commands run only with your approval unless they are in your auto-approval allow-list.';
  }
  return `${subject.displayName} ${subject.kind === 'write' ? 'changes files' : 'runs code'}; it runs only with your approval unless your settings auto-approve it.`;
}
