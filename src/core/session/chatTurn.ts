import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage } from '@langchain/core/messages';
import { classifyLlmError } from '../llm/classifyLlmError';
import type { AssistantMessage, ChatMessage, UserMessage } from '../history/conversationTypes';
import { newMessageId } from '../history';
import { streamChat } from '../llm/streamChat';
import { isCancellation } from '../util/cancellation';
import { chatHistoryMessages } from './chatHistoryMessages';
import { historyBudget } from './historyWindow';
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
  /** The model server's context window, when it says: history gets a share of it. */
  contextWindow?(): Promise<number | undefined>;
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
  const assistant: AssistantMessage = {
    kind: 'assistant',
    id: reuseId ?? newMessageId(),
    createdAt: new Date().toISOString(),
    text: '',
    status: 'streaming',
    model: deps.modelName,
  };
  await deps.save(assistant);
  deps.post({ type: 'chat/started', conversationId, user, assistant: { ...assistant } });
  // History is fitted to the server's context in tokens; what does not fit is condensed, and the answer says how much.
  const prompt = (historyTokens: number) => {
    const fitted = chatHistoryMessages(history, historyTokens);
    assistant.condensedTurns = fitted.condensed || undefined;
    return [...fitted.messages, new HumanMessage(questionForModel ?? user.text)];
  };
  try {
    let messages = prompt(historyBudget(await deps.contextWindow?.().catch(() => undefined)));
    const ask = () =>
      streamChat(deps.model(), messages, {
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
    const answer = await ask().catch((error: unknown) => {
      // A server smaller than it said (or one that never says) still answers: once, with the whole history condensed.
      if (assistant.text || assistant.reasoning || history.length === 0 || !overflowed(error)) throw error;
      messages = prompt(0);
      return ask();
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

function overflowed(error: unknown): boolean {
  const failure = classifyLlmError(error);
  return failure.kind === 'http' && failure.contextOverflow !== undefined;
}
