import type { BaseMessage } from '@langchain/core/messages';
import type { AgentStopReason } from '../agent/agentEvents';
import type { AgentLoop, AgentRunRequest } from '../agent/agentLoop';
import { isCancellation } from '../util/cancellation';
import { newMessageId } from '../history';
import type { AgentContextRef, AgentTurnMessage, AgentTurnStatus, ChatMessage, UserMessage } from '../history/conversationTypes';
import { AgentTurnJournal, type SaveAgentCall } from './agentTurnJournal';
import { AgentTurnRecorder } from './agentTurnRecorder';
import { conversationTurns, type HistoryForModel } from './chatHistoryMessages';
import { historyBudget } from './historyWindow';
import type { SessionListener } from './sessionEvents';

export interface AgentModeTurnDeps {
  /** Resolved inside the turn, so a missing model becomes an error answer the user can retry. */
  agent(): AgentLoop;
  describeError(error: unknown): string;
  /** Persists the turn (insert or replace by id); failures are reported, never fatal. */
  save(message: ChatMessage): Promise<void>;
  /** Persists one call of the saved turn (an appended record); failures are reported, never fatal. */
  saveCall: SaveAgentCall;
  post: SessionListener;
  /** Settings problems to show on the turn, e.g. an ignored workspace auto-approval. */
  notes?: string[];
  /** The model server's context window, when it says (for the chat's context meter). */
  contextWindow?(): Promise<number | undefined>;
}

export interface AgentModeTurnRequest {
  conversationId: string;
  user: UserMessage;
  /** The conversation before `user`. */
  history: ChatMessage[];
  /** The question as the model gets it (attachments included). */
  question: string;
  context: AgentContextRef[];
  mentions: string[];
  openFile?: string;
  /** Retry: the id of the turn to answer again, in place. */
  reuseId?: string;
}

const STATUS: Record<AgentStopReason, AgentTurnStatus> = {
  answered: 'done',
  'max-iterations': 'done',
  'wall-clock': 'done',
  'token-budget': 'done',
  'repeated-call': 'done',
  cancelled: 'stopped',
  failed: 'error',
};

/**
 * One agent-mode answer, saved as it happens: whole when it starts (as `streaming`), each tool call
 * as its own record when it starts, waits for approval and ends, and whole again at the end with
 * its final status and duration. A process killed mid-turn therefore leaves the turn in history
 * with every call that had finished; on reload it shows as interrupted.
 */
export async function runAgentModeTurn(deps: AgentModeTurnDeps, request: AgentModeTurnRequest, signal: AbortSignal): Promise<AgentTurnMessage> {
  const started = performance.now();
  const turn: AgentTurnMessage = {
    kind: 'agent-turn',
    id: request.reuseId ?? newMessageId(),
    createdAt: new Date().toISOString(),
    answer: '',
    status: 'streaming',
    toolCalls: [],
    ...(request.context.length ? { context: request.context } : {}),
    ...(request.mentions.length ? { mentions: request.mentions } : {}),
    ...(request.openFile ? { openFile: request.openFile } : {}),
  };
  await deps.save(turn);
  deps.post({ type: 'agentTurn/started', conversationId: request.conversationId, user: request.user, turn: structuredClone(turn) });

  const journal = new AgentTurnJournal(turn, deps.saveCall);
  const recorder = new AgentTurnRecorder(turn, deps.post, (call) => void journal.record(call), started);
  for (const note of deps.notes ?? []) recorder.handle({ type: 'warning', message: note });
  try {
    const history = await windowedHistory(request.history, deps.contextWindow);
    if (history.condensed) {
      turn.condensedTurns = history.condensed;
      recorder.handle({
        type: 'warning',
        message: `${history.condensed} earlier exchange${history.condensed === 1 ? '' : 's'} condensed to fit the model's context`,
      });
    }
    const result = await deps.agent().run({ ...agentRunRequest(request, history.messages, signal), onEvent: (event) => recorder.handle(event) });
    turn.status = STATUS[result.stopReason];
  } catch (error) {
    // The loop reports its own failures in its result; this is a turn that could not start (no model).
    turn.status = isCancellation(error, signal) ? 'stopped' : 'error';
    if (turn.status === 'error') turn.error = deps.describeError(error);
  }
  recorder.cancelUnfinished();
  turn.durationMs = Math.round(performance.now() - started);
  const window = turn.contextTokens !== undefined ? await deps.contextWindow?.().catch(() => undefined) : undefined;
  if (window) turn.contextWindow = window;
  await deps.save(turn);
  deps.post({ type: 'agentTurn/done', turn: structuredClone(turn) });
  return turn;
}

/** The conversation before the question as the model gets it: the newest turns that fit its context, the rest condensed. */
export async function windowedHistory(history: ChatMessage[], contextWindow: AgentModeTurnDeps['contextWindow']): Promise<HistoryForModel> {
  return conversationTurns(history, historyBudget(await contextWindow?.().catch(() => undefined)));
}

/**
 * What the agent is asked for a turn. A draft computed ahead (draftWarmup.ts) asks exactly this too, so the
 * question's first request, sent later, is the one the server has already computed.
 */
export function agentRunRequest(
  request: Pick<AgentModeTurnRequest, 'conversationId' | 'user' | 'question' | 'context' | 'mentions' | 'openFile'>,
  history: BaseMessage[],
  signal: AbortSignal,
): AgentRunRequest {
  return {
    question: request.question,
    indexQuery: request.user.text,
    withIndexContext: !request.context.some((ref) => ref.kind === 'codebase'),
    conversationId: request.conversationId,
    history,
    openFile: request.openFile,
    mentions: request.mentions,
    signal,
  };
}

/** `@name` or `name`, each once, in order. */
export function cleanMentions(mentions: string[] | undefined): string[] {
  return [...new Set((mentions ?? []).map((mention) => mention.replace(/^@/, '')).filter(Boolean))];
}
