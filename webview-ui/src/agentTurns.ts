import type {
  AgentToolApproval,
  AgentToolCall,
  AgentToolCallStatus,
  AgentTurnMessage,
  DefinitionRecord,
  IndexContextRecord,
  TokenUsage,
} from '../../src/shared/protocol';
import { formatDuration, formatTokens } from './format';
import type { IconName } from './icons';

/**
 * Agent turns as the webview keeps them while they stream: each host message becomes a new turn
 * object (never a mutation), so a component re-renders when and only when its turn changed.
 */

/** A call is known by its id together with its parent's: a sub-agent's model numbers its calls afresh. */
export function callKey(call: Pick<AgentToolCall, 'id' | 'parentCallId'>): string {
  return `${call.parentCallId ?? ''}\u0000${call.id}`;
}

/** Upserts a call; the other calls keep their identity, so their rows do not re-render. */
export function withToolCall(turn: AgentTurnMessage, call: AgentToolCall): AgentTurnMessage {
  const key = callKey(call);
  let index = -1;
  // The call that changed is almost always one of the last.
  for (let i = turn.toolCalls.length - 1; i >= 0; i--) {
    if (callKey(turn.toolCalls[i]) === key) {
      index = i;
      break;
    }
  }
  const toolCalls = index < 0 ? [...turn.toolCalls, call] : turn.toolCalls.map((c, i) => (i === index ? call : c));
  return { ...turn, toolCalls };
}

export function withUsage(turn: AgentTurnMessage, iterations: number, tokens: TokenUsage, contextTokens?: number): AgentTurnMessage {
  return { ...turn, iterations, tokens, ...(contextTokens !== undefined ? { contextTokens } : {}) };
}

export function withWarning(turn: AgentTurnMessage, message: string): AgentTurnMessage {
  return { ...turn, warnings: [...(turn.warnings ?? []), message] };
}

/**
 * The answer, apart from what the model answered before a check sent that back (`answerStart`, as the host's
 * history/agentTurnAnswer.ts splits it): the answer is what Copy and Insert take; what was sent back is shown folded.
 */
export function answerParts(turn: Pick<AgentTurnMessage, 'answer' | 'answerStart'>): { answer: string; sentBack?: string } {
  if (turn.answerStart === undefined) return { answer: turn.answer };
  const start = Math.min(turn.answerStart, turn.answer.length);
  return { answer: turn.answer.slice(start).trimStart(), sentBack: turn.answer.slice(0, start).trimEnd() };
}

export function withFallback(turn: AgentTurnMessage, reason: string): AgentTurnMessage {
  return { ...turn, fallback: reason };
}

/** While a question waits for the code index: live only, never saved, gone once the index answered. */
export interface IndexWait {
  indexedFiles: number;
  totalFiles: number;
}

export type LiveAgentTurn = AgentTurnMessage & { indexWait?: IndexWait };

export function withDefinitions(turn: LiveAgentTurn, definitions: DefinitionRecord[]): LiveAgentTurn {
  return { ...turn, definitions, indexWait: undefined };
}

export function withIndexContext(turn: LiveAgentTurn, context: IndexContextRecord): LiveAgentTurn {
  return { ...turn, indexContext: context, indexWait: undefined };
}

export function withIndexWait(turn: LiveAgentTurn, wait: IndexWait): LiveAgentTurn {
  return { ...turn, indexWait: wait };
}

export interface CallNode {
  call: AgentToolCall;
  /** A sub-agent's own calls, in the order they started. */
  children: CallNode[];
}

const trees = new WeakMap<readonly AgentToolCall[], CallNode[]>();

/**
 * The calls as rows: a sub-agent's calls under the call that started it. A call whose parent is
 * not (yet) known is shown at the top level rather than hidden. Cached per calls array: a chunk of
 * answer text keeps the array, so the tree is not rebuilt.
 */
export function callTree(calls: readonly AgentToolCall[]): CallNode[] {
  const cached = trees.get(calls);
  if (cached) return cached;
  const roots: CallNode[] = [];
  const topLevel = new Map<string, CallNode>();
  for (const call of calls) {
    if (call.parentCallId === undefined) {
      const node = { call, children: [] };
      roots.push(node);
      topLevel.set(call.id, node);
    }
  }
  for (const call of calls) {
    if (call.parentCallId === undefined) continue;
    const parent = topLevel.get(call.parentCallId);
    if (parent) parent.children.push({ call, children: [] });
    else roots.push({ call, children: [] });
  }
  // Orphans were appended after the roots; put every row back in the order the calls started.
  const order = new Map(calls.map((call, i) => [call, i]));
  roots.sort((a, b) => order.get(a.call)! - order.get(b.call)!);
  trees.set(calls, roots);
  return roots;
}

export const CALL_STATUS: Record<AgentToolCallStatus, { icon: IconName; label: string; spin?: boolean }> = {
  running: { icon: 'loading', label: 'Running', spin: true },
  'awaiting-approval': { icon: 'shield', label: 'Waiting for your approval' },
  ok: { icon: 'pass', label: 'Done' },
  error: { icon: 'error', label: 'Failed' },
  denied: { icon: 'circle-slash', label: 'Denied' },
  skipped: { icon: 'debug-step-over', label: 'Skipped' },
  cancelled: { icon: 'circle-slash', label: 'Cancelled' },
};

const DECISIONS: Record<AgentToolApproval['decision'], string> = {
  'allow-once': 'Allowed once',
  'allow-conversation': 'Allowed in this conversation',
  deny: 'Denied',
};

const DECIDED_BY: Record<AgentToolApproval['by'], string> = {
  user: 'by you',
  conversation: 'by an earlier “Allow in this conversation”',
  policy: 'by your auto-approval settings',
};

/** "Denied by you: not that file." */
export function approvalLabel(approval: AgentToolApproval): string {
  const text = `${DECISIONS[approval.decision]} ${DECIDED_BY[approval.by]}`;
  return approval.reason ? `${text}: ${approval.reason}` : text;
}

/** The arguments as the user reads them: pretty JSON, or the raw text the model sent when it was not JSON. */
export function formatArgs(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined) return '';
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/**
 * "Used 4 tools · 12.3 s · 1,234 tokens (1,100 cached) · first token 1.9 s": the line a finished turn collapses to.
 * Cached tokens are prompt tokens the server did not compute again; turns saved before these were kept lack them.
 */
export function turnSummary(turn: AgentTurnMessage): string {
  const count = turn.toolCalls.length;
  const parts = [count === 0 ? 'No tools used' : `Used ${count.toLocaleString('en-US')} tool${count === 1 ? '' : 's'}`];
  if (turn.durationMs !== undefined) parts.push(formatDuration(turn.durationMs));
  if (turn.tokens?.total) parts.push(formatTokens(turn.tokens.total) + (turn.tokens.cached ? ` (${turn.tokens.cached.toLocaleString('en-US')} cached)` : ''));
  if (turn.firstTokenMs !== undefined) parts.push(`first token ${formatDuration(turn.firstTokenMs)}`);
  return parts.join(' · ');
}

/** How full the model's context was at the turn's last call: "2,345 of 16,384 tokens (14%)", or the count alone when the window is unknown. */
export function contextFill(turn: AgentTurnMessage): { text: string; percent?: number } | undefined {
  if (turn.contextTokens === undefined) return undefined;
  const used = turn.contextTokens.toLocaleString('en-US');
  if (!turn.contextWindow) return { text: `${used} tokens` };
  const percent = Math.min(100, Math.round((turn.contextTokens / turn.contextWindow) * 100));
  return { text: `${used} of ${turn.contextWindow.toLocaleString('en-US')} tokens (${percent}%)`, percent };
}

/** Why a turn ended early, in words; undefined when it simply answered. */
export function stopReasonText(turn: AgentTurnMessage): string | undefined {
  switch (turn.stopReason) {
    case 'max-iterations':
      return `Stopped after ${turn.iterations ?? 'the maximum number of'} tool-calling steps (codewiki.agent.maxIterations).`;
    case 'wall-clock':
      return 'Stopped: the turn ran out of time.';
    case 'token-budget':
      return 'Stopped: the turn used up its token budget.';
    case 'repeated-call':
      return 'Stopped: the model repeated the same tool call.';
    default:
      return undefined;
  }
}
