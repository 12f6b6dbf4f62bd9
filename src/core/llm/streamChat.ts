import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage, BaseMessageChunk, MessageContent } from '@langchain/core/messages';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import { ChatCompletionsModel } from './chatCompletionsModel';
import { ThinkBlockSplitter, type SplitText } from './thinkBlocks';
import { usageFromCounts, usageFromMessage, type TokenUsage } from './usage';

export interface StreamChatOptions {
  signal?: AbortSignal;
  callbacks?: Callbacks;
  /** Each piece of the answer as it arrives (never the model's thinking). */
  onToken?(text: string): void;
  /** Each piece of a reasoning model's thinking: `<think>` blocks and `reasoning_content`. */
  onReasoning?(text: string): void;
}

export interface StreamedChat {
  /** The answer: what the model wrote outside its thinking. */
  text: string;
  /** A reasoning model's thinking, kept apart so no caller reads it as the answer. */
  reasoning: string;
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
  const result: StreamedChat = { text: '', reasoning: '', usage: undefined, finishReason: undefined };
  const reader: AnswerReader = { result, options, splitter: new ThinkBlockSplitter() };
  try {
    if (model instanceof ChatCompletionsModel && !options.callbacks) await readEvents(model, messages, reader);
    else for await (const chunk of await model.stream(messages, { signal: options.signal, callbacks: options.callbacks })) take(reader, chunk);
    split(reader, reader.splitter.flush());
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
async function readEvents(model: ChatCompletionsModel, messages: BaseMessage[], reader: AnswerReader): Promise<void> {
  const signal = reader.options.signal;
  signal?.throwIfAborted();
  for await (const event of await model.streamCompletionChunks(messages, signal)) {
    signal?.throwIfAborted();
    takeEvent(reader, event);
  }
  signal?.throwIfAborted();
}

/** The answer being read, and the splitter that keeps thinking out of it (a tag may span chunks). */
interface AnswerReader {
  result: StreamedChat;
  options: StreamChatOptions;
  splitter: ThinkBlockSplitter;
}

/** One wire event into the answer so far. The server's JSON is untrusted: any field may have any shape. */
function takeEvent(reader: AnswerReader, event: unknown): void {
  const { result } = reader;
  const { usage, choices } = (typeof event === 'object' && event !== null ? event : {}) as { usage?: unknown; choices?: unknown };
  if (typeof usage === 'object' && usage !== null) {
    const { prompt_tokens, completion_tokens, total_tokens } = usage as Record<string, unknown>;
    result.usage = usageFromCounts(prompt_tokens, completion_tokens, total_tokens);
  }
  const choice = (Array.isArray(choices) ? choices[0] : undefined) as
    { finish_reason?: unknown; delta?: { content?: unknown; reasoning_content?: unknown } } | undefined;
  if (typeof choice?.finish_reason === 'string' && choice.finish_reason) result.finishReason = choice.finish_reason;
  const thought = choice?.delta?.reasoning_content;
  if (typeof thought === 'string' && thought) split(reader, { answer: '', reasoning: thought });
  const piece = choice?.delta?.content;
  if (typeof piece === 'string' && piece) split(reader, reader.splitter.push(piece));
}

/** One LangChain chunk into the answer so far. */
function take(reader: AnswerReader, chunk: BaseMessageChunk): void {
  const { result } = reader;
  result.usage = usageFromMessage(chunk) ?? result.usage;
  result.finishReason = finishReasonOf(chunk.response_metadata) ?? result.finishReason;
  const thought = chunk.additional_kwargs?.reasoning_content;
  if (typeof thought === 'string' && thought) split(reader, { answer: '', reasoning: thought });
  const piece = textOf(chunk.content);
  if (piece) split(reader, reader.splitter.push(piece));
}

function split({ result, options }: AnswerReader, piece: SplitText): void {
  if (piece.reasoning) {
    result.reasoning += piece.reasoning;
    options.onReasoning?.(piece.reasoning);
  }
  if (piece.answer) {
    result.text += piece.answer;
    options.onToken?.(piece.answer);
  }
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
