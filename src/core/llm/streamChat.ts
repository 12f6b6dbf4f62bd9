import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage, BaseMessageChunk, MessageContent } from '@langchain/core/messages';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import { ChatCompletionsModel } from './chatCompletionsModel';
import { usageFromCounts, usageFromMessage, type TokenUsage } from './usage';

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
    if (model instanceof ChatCompletionsModel && !options.callbacks) await readEvents(model, messages, result, options);
    else for await (const chunk of await model.stream(messages, { signal: options.signal, callbacks: options.callbacks })) take(result, chunk, options);
  } catch (error) {
    // The caller keeps what arrived before a Stop or a broken stream (a partial answer is still shown and saved).
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partialText: result.text });
  }
  return result;
}

/**
 * With nobody listening through callbacks, a ChatCompletionsModel answer is read from its wire events
 * (`streamCompletionChunks`): what `.stream()` adds to each of them (LangChain's chunk classes, a merge of the
 * whole message so far, a callback run, async-context hops) tripled the client's CPU per token against a
 * minimal client, for nothing a plain answer uses (`npm run bench`). An abort ends the stream as `.stream()`
 * ends it: by throwing the signal's reason.
 */
async function readEvents(model: ChatCompletionsModel, messages: BaseMessage[], result: StreamedChat, options: StreamChatOptions): Promise<void> {
  const signal = options.signal;
  signal?.throwIfAborted();
  for await (const event of await model.streamCompletionChunks(messages, signal)) {
    signal?.throwIfAborted();
    takeEvent(result, event, options);
  }
  signal?.throwIfAborted();
}

/** One wire event into the answer so far. The server's JSON is untrusted: any field may have any shape. */
function takeEvent(result: StreamedChat, event: unknown, options: StreamChatOptions): void {
  const { usage, choices } = (typeof event === 'object' && event !== null ? event : {}) as { usage?: unknown; choices?: unknown };
  if (typeof usage === 'object' && usage !== null) {
    const { prompt_tokens, completion_tokens, total_tokens } = usage as Record<string, unknown>;
    result.usage = usageFromCounts(prompt_tokens, completion_tokens, total_tokens);
  }
  const choice = (Array.isArray(choices) ? choices[0] : undefined) as { finish_reason?: unknown; delta?: { content?: unknown } } | undefined;
  if (typeof choice?.finish_reason === 'string' && choice.finish_reason) result.finishReason = choice.finish_reason;
  const piece = choice?.delta?.content;
  if (typeof piece === 'string' && piece) append(result, piece, options);
}

/** One LangChain chunk into the answer so far. */
function take(result: StreamedChat, chunk: BaseMessageChunk, options: StreamChatOptions): void {
  result.usage = usageFromMessage(chunk) ?? result.usage;
  result.finishReason = finishReasonOf(chunk.response_metadata) ?? result.finishReason;
  const piece = textOf(chunk.content);
  if (piece) append(result, piece, options);
}

function append(result: StreamedChat, piece: string, options: StreamChatOptions): void {
  result.text += piece;
  options.onToken?.(piece);
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
