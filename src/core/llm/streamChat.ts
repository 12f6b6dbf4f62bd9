import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage, BaseMessageChunk, MessageContent } from '@langchain/core/messages';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import { ChatCompletionsModel } from './chatCompletionsModel';
import { usageFromMessage, type TokenUsage } from './usage';

export interface StreamChatOptions {
  signal?: AbortSignal;
  callbacks?: Callbacks;
  /** Each text piece as it arrives. */
  onToken?(text: string): void;
}

export interface StreamedChat {
  text: string;
  /** Undefined when the server reported none (not the same as zero). */
  usage: TokenUsage | undefined;
  /** The server's `finish_reason` (`stop`, `length`, `tool_calls`, …), when it sent one. */
  finishReason: string | undefined;
}

/**
 * Every model request in the core goes through here, streamed, for two reasons measured against a
 * real llama-server: a non-streamed request gets no byte until the whole generation is done, so the
 * "no response" deadline capped the generation itself; and the server frees a streamed request's slot
 * as soon as the socket closes, while a non-streamed one kept generating for seconds after Stop.
 *
 * Usage and finish_reason are read from the chunk that carries them, never from the concatenated
 * message: LangChain's concat keeps the first chunk's class, and a first chunk without `delta.role`
 * (llama-server omits it when the first token is an incomplete UTF-8 sequence) is not an AI chunk.
 */
export async function streamChat(model: BaseChatModel, messages: BaseMessage[], options: StreamChatOptions = {}): Promise<StreamedChat> {
  const result: StreamedChat = { text: '', usage: undefined, finishReason: undefined };
  try {
    for await (const { chunk, generationInfo } of chunksOf(model, messages, options)) {
      result.usage = usageFromMessage(chunk) ?? result.usage;
      result.finishReason = finishReasonOf(generationInfo) ?? finishReasonOf(chunk.response_metadata) ?? result.finishReason;
      const piece = textOf(chunk.content);
      if (!piece) continue;
      result.text += piece;
      options.onToken?.(piece);
    }
  } catch (error) {
    // The caller keeps what arrived before a Stop or a broken stream (a partial answer is still shown and saved).
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partialText: result.text });
  }
  return result;
}

interface StreamedChunk {
  chunk: BaseMessageChunk;
  generationInfo?: Record<string, unknown>;
}

/**
 * The chunks of one streamed request. With nobody listening through callbacks, ChatCompletionsModel's
 * are read from `_streamResponseChunks`, the hook every LangChain chat model implements and `.stream()`
 * wraps: the real ChatOpenAI request, SSE decoding and chunk conversion, without what `.stream()` adds per
 * chunk (a merge of the whole message so far, a callback run and an async-context hop), which measured
 * about 20 µs a token, a third of the client's CPU per token against a minimal client (`npm run bench`).
 * An abort ends the stream as `.stream()` ends it: by throwing the signal's reason.
 */
async function* chunksOf(model: BaseChatModel, messages: BaseMessage[], options: StreamChatOptions): AsyncGenerator<StreamedChunk> {
  if (!(model instanceof ChatCompletionsModel) || options.callbacks) {
    for await (const chunk of await model.stream(messages, { signal: options.signal, callbacks: options.callbacks })) yield { chunk };
    return;
  }
  const signal = options.signal;
  signal?.throwIfAborted();
  for await (const generation of model._streamResponseChunks(messages, { signal })) {
    signal?.throwIfAborted();
    yield { chunk: generation.message, generationInfo: generation.generationInfo };
  }
  signal?.throwIfAborted();
}

export function textOf(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function finishReasonOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const reason = metadata?.finish_reason;
  return typeof reason === 'string' && reason ? reason : undefined;
}

/** The words a user reads when an answer hit the server's output limit. */
export function cutOffWarning(what: string): string {
  return `${what} was cut off: the server stopped at its output token limit (finish_reason "length")`;
}
