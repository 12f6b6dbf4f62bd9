import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AssistantMessage, ChatMessage, UserMessage } from '../history/conversationTypes';
import { newMessageId } from '../history';
import { streamChat } from '../llm/streamChat';
import { isCancellation } from '../engine/abort';
import { chatHistoryMessages } from './chatHistoryMessages';
import type { SessionListener } from './sessionEvents';
import { reasoningThatFits } from './reasoningCap';

export interface ChatTurnDeps {
  /** Resolved inside the turn, so a missing configuration becomes an error answer the user can retry. */
  model(): BaseChatModel;
  modelName: string;
  describeError(error: unknown): string;
  /** Persists a message (insert or replace by id); failures are reported, never fatal. */
  save(message: ChatMessage): Promise<void>;
  post: SessionListener;
}

/**
 * One streamed answer. The assistant message is saved when it starts (as `streaming`, so a
 * crash leaves a visible interrupted turn rather than nothing) and again when it ends with
 * its final status (`done`, `stopped` with the partial text, or `error` with plain words) and
 * how long it took.
 */
export async function streamAssistantAnswer(
  deps: ChatTurnDeps,
  conversationId: string,
  history: ChatMessage[],
  user: UserMessage,
  signal: AbortSignal,
  reuseId?: string,
  /** The question with attached files, when it differs from what the user typed (which is what is saved and shown). */
  questionForModel?: string,
): Promise<AssistantMessage> {
  const started = performance.now();
  const assistant: AssistantMessage = { kind: 'assistant', id: reuseId ?? newMessageId(), createdAt: new Date().toISOString(), text: '', status: 'streaming', model: deps.modelName };
  await deps.save(assistant);
  deps.post({ type: 'chat/started', conversationId, user, assistant });
  try {
    const asked = questionForModel === undefined ? user : { ...user, text: questionForModel };
    const answer = await streamChat(deps.model(), chatHistoryMessages([...history, asked]), {
      signal,
      onToken: (piece) => {
        assistant.text += piece;
        deps.post({ type: 'chat/chunk', messageId: assistant.id, text: piece });
      },
      // Thinking is shown collapsed and kept out of the answer, so it is never sent back as history either.
      onReasoning: (piece) => {
        const text = reasoningThatFits(assistant.reasoning, piece);
        if (!text) return;
        assistant.reasoning = (assistant.reasoning ?? '') + text;
        deps.post({ type: 'chat/reasoning', messageId: assistant.id, text });
      },
    });
    assistant.status = 'done';
    assistant.usage = answer.usage;
  } catch (error) {
    if (isCancellation(error, signal)) assistant.status = 'stopped';
    else Object.assign(assistant, { status: 'error', error: deps.describeError(error) });
  }
  assistant.durationMs = Math.round(performance.now() - started);
  await deps.save(assistant);
  deps.post({ type: 'chat/done', message: assistant });
  return assistant;
}
