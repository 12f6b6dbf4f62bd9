import type { AgentTurnMessage } from './conversationTypes';

/**
 * An agent turn's answer, apart from what the model answered before a check sent that back (`answerStart`): the
 * answer goes to the model with the next question, to exports and previews; what was sent back is only shown.
 */
export function agentTurnAnswer(turn: Pick<AgentTurnMessage, 'answer' | 'answerStart'>): { answer: string; sentBack?: string } {
  if (turn.answerStart === undefined) return { answer: turn.answer };
  const start = Math.min(turn.answerStart, turn.answer.length);
  return { answer: turn.answer.slice(start).trimStart(), sentBack: turn.answer.slice(0, start).trimEnd() };
}
