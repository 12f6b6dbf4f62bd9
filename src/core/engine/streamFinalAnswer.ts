import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { type AIMessageChunk, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { usageFromMessage, ZERO_USAGE, type TokenUsage } from '../llm/usage';
import type { ExecutorEventListener, PromptMessage } from './executorEvents';

export interface StreamedAnswer {
  text: string;
  tokens: TokenUsage;
}

/**
 * Streams the final answer through the main model, emitting each token. On cancel the text
 * received so far is attached to the error so the caller can keep the partial answer.
 */
export async function streamFinalAnswer(model: BaseChatModel, messages: PromptMessage[], signal: AbortSignal, emit: ExecutorEventListener): Promise<StreamedAnswer> {
  const lcMessages = messages.map((m) => (m.role === 'system' ? new SystemMessage(m.content) : new HumanMessage(m.content)));
  let text = '';
  let aggregate: AIMessageChunk | undefined;
  try {
    const stream = await model.stream(lcMessages, { signal });
    for await (const chunk of stream) {
      aggregate = aggregate ? aggregate.concat(chunk) : chunk;
      const piece = typeof chunk.content === 'string' ? chunk.content : chunk.content.map((c) => ('text' in c ? c.text : '')).join('');
      if (!piece) continue;
      text += piece;
      emit({ type: 'llm-token', text: piece });
    }
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partialText: text });
  }
  return { text, tokens: usageFromMessage(aggregate) ?? { ...ZERO_USAGE } };
}
