import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { streamChat } from '../llm/streamChat';
import { ZERO_USAGE, type TokenUsage } from '../llm/usage';
import type { PromptMessage } from '../llm/promptMessages';
import type { ExecutorEventListener } from './executorEvents';

export interface StreamedAnswer {
  text: string;
  tokens: TokenUsage;
  finishReason: string | undefined;
}

/**
 * Streams the final answer through the main model, emitting each token of the answer and, apart, of its thinking. On cancel the text
 * received so far is attached to the error (`partialText`) so the caller can keep the partial answer.
 */
export async function streamFinalAnswer(
  model: BaseChatModel,
  messages: PromptMessage[],
  signal: AbortSignal,
  emit: ExecutorEventListener,
): Promise<StreamedAnswer> {
  const lcMessages = messages.map((m) => (m.role === 'system' ? new SystemMessage(m.content) : new HumanMessage(m.content)));
  const answer = await streamChat(model, lcMessages, {
    signal,
    onToken: (text) => emit({ type: 'llm-token', text }),
    onReasoning: (text) => emit({ type: 'llm-reasoning', text }),
  });
  return { text: answer.text, tokens: answer.usage ?? { ...ZERO_USAGE }, finishReason: answer.finishReason };
}
