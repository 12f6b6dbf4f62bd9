import type { AgentTurnMessage, HostToWebview } from '../../src/shared/protocol';
import { chipKey, type ComposerChip } from './agentModeState';
import { withDefinitions, withFallback, withIndexContext, withIndexWait, withToolCall, withUsage, withWarning } from './agentTurns';
import type { Store } from './state';
import type { StreamBuffer } from './streamBuffer';

/** The agent-mode host messages that are not streamed text (`hostMessages.ts` routes those through the stream buffer). */
export type AgentModeHostMessage = Extract<
  HostToWebview,
  {
    type:
      | 'agentTurn/toolCall'
      | 'agentTurn/usage'
      | 'agentTurn/warning'
      | 'agentTurn/answerRestart'
      | 'agentTurn/fallback'
      | 'agentTurn/definitions'
      | 'agentTurn/indexContext'
      | 'agentTurn/instructions'
      | 'agentTurn/indexWait'
      | 'agent/approval'
      | 'agent/approvalSettled'
      | 'tools/list'
      | 'chat/mode'
      | 'context/add';
  }
>;

/**
 * A turn's progress (calls, usage, warnings) goes through the stream buffer with its text: a burst
 * of tool calls renders once per frame, like a burst of chunks.
 */
export function applyAgentModeMessage(store: Store, stream: StreamBuffer, message: AgentModeHostMessage): void {
  const state = store.current;
  switch (message.type) {
    case 'agentTurn/toolCall':
      return patchTurn(stream, message.turnId, (turn) => withToolCall(turn, message.call));
    case 'agentTurn/usage':
      return patchTurn(stream, message.turnId, (turn) => withUsage(turn, message.iterations, message.tokens, message.contextTokens));
    case 'agentTurn/warning':
      return patchTurn(stream, message.turnId, (turn) => withWarning(turn, message.message));
    case 'agentTurn/answerRestart':
      return patchTurn(stream, message.turnId, (turn) => ({ ...turn, answerStart: message.at }));
    case 'agentTurn/fallback':
      return patchTurn(stream, message.turnId, (turn) => withFallback(turn, message.reason));
    case 'agentTurn/definitions':
      return patchTurn(stream, message.turnId, (turn) => withDefinitions(turn, message.definitions));
    case 'agentTurn/indexContext':
      return patchTurn(stream, message.turnId, (turn) => withIndexContext(turn, message.context));
    case 'agentTurn/instructions':
      return patchTurn(stream, message.turnId, (turn) => ({ ...turn, instructions: message.instructions }));
    case 'agentTurn/indexWait':
      return patchTurn(stream, message.turnId, (turn) => withIndexWait(turn, { indexedFiles: message.indexedFiles, totalFiles: message.totalFiles }));
    case 'agent/approval': {
      const { type: _type, ...prompt } = message;
      // Sent again after a reload while it still waits: replace, never duplicate.
      const others = state.approvals.filter((a) => a.prompt.approvalId !== prompt.approvalId);
      return store.update({ approvals: [...others, { prompt }] });
    }
    case 'agent/approvalSettled':
      if (!state.approvals.some((a) => a.prompt.approvalId === message.approvalId)) return;
      return store.update({ approvals: state.approvals.map((a) => (a.prompt.approvalId === message.approvalId ? { ...a, settled: message.outcome } : a)) });
    case 'tools/list': {
      const { type: _type, ...tools } = message;
      return store.update({ tools });
    }
    case 'chat/mode':
      return store.update({ mode: message.mode, modeKnown: true });
    case 'context/add':
      return addChip(store, { kind: 'attachment', attachment: message.attachment });
  }
}

/**
 * The host's final copy replaces the live one; it carries how long the turn took (`durationMs`), as
 * the saved turn does, so a live and a restored turn show the same summary. Its cards go (the host
 * settles them before the turn ends).
 */
export function finishAgentTurn(store: Store, turn: AgentTurnMessage): void {
  store.patchMessage(turn.id, () => turn);
  const state = store.current;
  store.update({
    approvals: state.approvals.filter((a) => a.prompt.turnId !== turn.id),
    activeId: state.activeId === turn.id ? undefined : state.activeId,
  });
}

export function addChip(store: Store, chip: ComposerChip): void {
  const chips = store.current.chips;
  if (chips.some((c) => chipKey(c) === chipKey(chip))) return;
  store.update({ chips: [...chips, chip] });
}

function patchTurn(stream: StreamBuffer, turnId: string, change: (turn: AgentTurnMessage) => AgentTurnMessage): void {
  stream.pushChange(turnId, (message) => (message.kind === 'agent-turn' ? change(message) : message));
}
