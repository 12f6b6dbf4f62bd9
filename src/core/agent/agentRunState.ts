import type { BaseMessage } from '@langchain/core/messages';
import { ZERO_USAGE, type TokenUsage } from '../llm/usage';
import type { AgentEventBody } from './agentEvents';
import type { ToolCallContext } from './toolCallRunner';

/** What one run keeps while it goes; shared with the fallback runner. */
export interface AgentRunState {
  messages: BaseMessage[];
  /** Index in `messages` where this turn starts. */
  turnStart: number;
  answer: string;
  iterations: number;
  tokens: TokenUsage;
  emit(event: AgentEventBody): void;
  /** Streams answer text: emitted as tokens and added to the answer, turns separated by a blank line. */
  say(text: string, iteration: number): void;
  toolContext: ToolCallContext;
}

/**
 * A fresh run state. `say` separates the text of different turns with a blank line, never before the first text.
 * The separation follows what was shown, not `answer`: a draft the loop set aside (`answer` reset for a checked
 * answer) was still streamed to the user, and the answer that replaces it must not run on from its last word.
 */
export function createRunState(emit: (event: AgentEventBody) => void, toolContext: ToolCallContext): AgentRunState {
  let lastTextIteration: number | undefined;
  /** Whether any visible text went out, and the last two characters that did. */
  let shownText = false;
  let shownTail = '';
  const state: AgentRunState = {
    messages: [],
    turnStart: 0,
    answer: '',
    iterations: 0,
    tokens: { ...ZERO_USAGE },
    emit,
    say(text, iteration) {
      if (!text) return;
      if (lastTextIteration !== undefined && lastTextIteration !== iteration && shownText && !shownTail.endsWith('\n\n')) {
        const gap = shownTail.endsWith('\n') ? '\n' : '\n\n';
        if (state.answer.trim()) state.answer += gap;
        shownTail = (shownTail + gap).slice(-2);
        emit({ type: 'token', text: gap, iteration });
      }
      lastTextIteration = iteration;
      state.answer += text;
      shownText ||= text.trim() !== '';
      shownTail = (shownTail + text).slice(-2);
      emit({ type: 'token', text, iteration });
    },
    toolContext,
  };
  return state;
}
