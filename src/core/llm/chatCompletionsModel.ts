import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseMessage, BaseMessageChunk } from '@langchain/core/messages';
import type { ChatGenerationChunk } from '@langchain/core/outputs';
import {
  ChatOpenAI,
  ChatOpenAICompletions,
  convertMessagesToCompletionsMessageParams,
  wrapOpenAIClientError,
  type ChatOpenAICallOptions,
  type ChatOpenAIFields,
  type OpenAIClient,
} from '@langchain/openai';
import { completionChunkStream } from './completionChunkStream';
import { carryServerTimings, keepServerTimings } from './serverTimings';

type Delta = Record<string, unknown>;
type RawChunk = Parameters<ChatOpenAICompletions['_convertCompletionsDeltaToBaseMessageChunk']>[1];
type StreamingRequest = OpenAIClient.Chat.ChatCompletionCreateParamsStreaming;
type Request = OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming;
type ChunkStream = AsyncIterable<OpenAIClient.Chat.Completions.ChatCompletionChunk>;
type Completion = OpenAIClient.Chat.Completions.ChatCompletion;

/**
 * Chat completions as ChatOpenAI makes them, with two changes:
 * - Streamed deltas default to the assistant role. The protocol only puts `role` on the first delta, and
 *   llama-server omits even that when the first token is an incomplete UTF-8 sequence. LangChain then builds a
 *   generic ChatMessageChunk, and every later chunk concatenated onto it loses tool-call chunks and usage. A chat
 *   completion is always the assistant's.
 * - A streamed answer's body is decoded by `completionChunkStream`, not by the SDK's `Stream`: the request still
 *   goes out through the SDK (so a status error is the SDK's APIError, wrapped by LangChain as before), and the
 *   events come back as the same objects, for less CPU a token; llama-server's `timings` ride along in `usage`, and
 *   its timings so far on each chunk (carryServerTimings).
 */
class AssistantRoleCompletions extends ChatOpenAICompletions {
  protected override _convertCompletionsDeltaToBaseMessageChunk(delta: Delta, rawResponse: RawChunk, defaultRole?: 'assistant'): BaseMessageChunk {
    return carryServerTimings(super._convertCompletionsDeltaToBaseMessageChunk(delta, rawResponse, defaultRole ?? 'assistant'), rawResponse);
  }

  // What ChatOpenAICompletions.completionWithRetry does for a streamed request, with the body handed to our decoder.
  override completionWithRetry(request: StreamingRequest, requestOptions?: OpenAIClient.RequestOptions): Promise<ChunkStream>;
  override completionWithRetry(request: Request, requestOptions?: OpenAIClient.RequestOptions): Promise<Completion>;
  override async completionWithRetry(request: StreamingRequest | Request, requestOptions?: OpenAIClient.RequestOptions): Promise<ChunkStream | Completion> {
    if (!request.stream) return super.completionWithRetry(request, requestOptions);
    const { maxRetries, ...sdkOptions } = requestOptions ?? {};
    const clientOptions = this._getClientOptions(sdkOptions);
    return this.caller.callWithOptions({ maxRetries }, async () => {
      try {
        const response = await this.client.chat.completions.create(request, clientOptions).asResponse();
        return keepServerTimings(completionChunkStream(response)) as ChunkStream;
      } catch (error) {
        throw wrapOpenAIClientError(error);
      }
    });
  }
}

/**
 * ChatOpenAI that always speaks `/chat/completions`, the one API every OpenAI-compatible server
 * (llama.cpp, Ollama, LM Studio, vLLM) implements. Stock ChatOpenAI switches to `/responses` for model
 * names it believes prefer it (e.g. anything containing "codex"), which local servers answer with 404.
 */
export class ChatCompletionsModel extends ChatOpenAI {
  constructor(fields: ChatOpenAIFields) {
    super({ ...fields, useResponsesApi: false, completions: new AssistantRoleCompletions(fields) });
  }

  protected override _useResponsesApi(): boolean {
    return false;
  }

  /**
   * What ChatOpenAI's own `_streamResponseChunks` does when the Responses API is off (here always): its completions
   * delegate's stream, with the same combined call options. Returned as is rather than re-yielded with `yield*`,
   * which costs every streamed token one more async-generator hop (bench/streamingOverhead.ts).
   */
  override _streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    return this.completions._streamResponseChunks(messages, this._combineCallOptions(options), runManager);
  }

  /**
   * The `chat.completion.chunk` events of one streamed answer, as the server sent them: the request ChatOpenAI
   * builds for `.stream()` (its parameters and message conversion, sent through the SDK, errors wrapped as
   * LangChain wraps them), without the conversion of every event into LangChain's chunk classes. For a plain
   * answer only the text, the usage and the finish reason matter, and reading them straight from the events
   * brings the client's CPU per token to a direct client's (`npm run bench`, streaming overhead).
   */
  async streamCompletionChunks(messages: BaseMessage[], signal?: AbortSignal): Promise<ChunkStream> {
    const options = this._combineCallOptions({ signal } as this['ParsedCallOptions']);
    const messagesParams = convertMessagesToCompletionsMessageParams({ messages, model: this.model });
    return this.completions.completionWithRetry(
      { ...this.completions.invocationParams(options, { streaming: true }), messages: messagesParams, stream: true },
      options,
    );
  }

  /** bindTools and friends go through withConfig, which in ChatOpenAI rebuilds a plain ChatOpenAI. */
  override withConfig(config: Partial<ChatOpenAICallOptions>): ReturnType<ChatOpenAI['withConfig']> {
    const bound = new ChatCompletionsModel(this.fields as ChatOpenAIFields);
    bound.defaultOptions = { ...this.defaultOptions, ...config };
    return bound;
  }
}
