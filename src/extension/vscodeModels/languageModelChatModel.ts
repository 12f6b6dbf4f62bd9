import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { LanguageModelApi, LanguageModelChatLike, LmCancellation, LmTool } from './languageModelApi';
import { LanguageModelStalledError } from './languageModelErrors';
import { nextPart, withDeadline } from './nextPart';
import { requestText, toLanguageModelMessages, toLanguageModelTools, toolOptions } from './toLanguageModelRequest';

export interface LanguageModelChatCallOptions extends BaseChatModelCallOptions {
  /** Set by bindTools, already in VS Code's shape. */
  tools?: LmTool[];
}

export interface LanguageModelChatSettings {
  /** How long the model may send nothing once it accepted a request (codewiki.requestTimeoutSeconds). */
  timeoutMs: number;
  /** Shown by VS Code when it asks the user to let CodeWiki use another extension's models. */
  justification: string;
}

/** countTokens is a round trip to the provider's extension: it must never hold an answer up for long. */
const COUNT_TOKENS_DEADLINE_MS = 2_000;

/**
 * A LangChain chat model over one `vscode.lm` model (LanguageModelChat.sendRequest), so chat, action prompts and
 * the agent run through it as they run through ChatOpenAI: text parts stream as AIMessageChunks, tool calls come
 * back from LanguageModelToolCallParts as tool_call_chunks (whole arguments, one chunk per call), Stop cancels the
 * VS Code request. Usage is counted with the model's own countTokens, and left undefined (the agent then
 * estimates) when counting fails or takes too long.
 */
export class LanguageModelChatModel extends BaseChatModel<LanguageModelChatCallOptions> {
  constructor(
    private readonly chat: LanguageModelChatLike,
    private readonly api: LanguageModelApi,
    private readonly settings: LanguageModelChatSettings,
  ) {
    super({});
  }

  _llmType(): string {
    return 'vscode-lm';
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<LanguageModelChatCallOptions>) {
    return this.withConfig({ ...kwargs, tools: toLanguageModelTools(tools) });
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) whole = whole ? whole.concat(chunk) : chunk;
    return { generations: whole ? [whole] : [] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { signal } = options;
    signal?.throwIfAborted();
    const { tools, toolMode } = toolOptions(options.tools, options.tool_choice, this.api);
    const cancellation = this.api.newCancellation();
    const inputTokens = this.countTokens(requestText(messages, tools), cancellation);
    let output = '';
    let calls = 0;
    let finished = false;
    try {
      const deadline = { timeoutMs: this.settings.timeoutMs, signal, modelName: this.chat.name, cancel: () => cancellation.cancel() };
      // The request itself has the same deadline as each part (security.md #10): a provider that never starts
      // would otherwise hang the turn until Stop. VS Code may be asking the user for consent meanwhile, so the
      // error says so, and Retry asks again.
      const response = await withDeadline(
        () =>
          this.chat.sendRequest(
            toLanguageModelMessages(messages, this.api),
            { justification: this.settings.justification, tools, toolMode },
            cancellation.token,
          ),
        { ...deadline, stalled: () => new LanguageModelStalledError(this.chat.name, this.settings.timeoutMs, 'start') },
      );
      const parts = response.stream[Symbol.asyncIterator]();
      for (let next = await nextPart(parts, deadline); !next.done; next = await nextPart(parts, deadline)) {
        const chunk = this.chunkOf(next.value, calls);
        if (!chunk) continue;
        if (chunk.message instanceof AIMessageChunk && chunk.message.tool_call_chunks?.length) {
          calls++;
          output += chunk.message.tool_call_chunks.map((call) => `${call.name}${call.args}`).join('');
        } else output += chunk.text;
        yield chunk;
        await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk });
      }
      finished = true;
      signal?.throwIfAborted();
      const input = await inputTokens;
      const outputTokens = input === undefined ? undefined : await this.countTokens(output, cancellation);
      yield new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({
          content: '',
          response_metadata: { finish_reason: calls ? 'tool_calls' : 'stop', model_name: this.chat.id },
          ...(input !== undefined && outputTokens !== undefined
            ? { usage_metadata: { input_tokens: input, output_tokens: outputTokens, total_tokens: input + outputTokens } }
            : {}),
        }),
        generationInfo: { finish_reason: calls ? 'tool_calls' : 'stop' },
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      if (!finished) cancellation.cancel(); // the caller stopped reading (or it failed): the provider stops generating
      cancellation.dispose();
    }
  }

  /** A text part, or a tool call as one complete tool_call_chunk; other parts (data, thinking) are skipped. */
  private chunkOf(part: unknown, index: number): ChatGenerationChunk | undefined {
    if (part instanceof this.api.TextPart) {
      return part.value ? new ChatGenerationChunk({ text: part.value, message: new AIMessageChunk({ content: part.value }) }) : undefined;
    }
    if (part instanceof this.api.ToolCallPart) {
      const args = JSON.stringify(part.input ?? {});
      return new ChatGenerationChunk({
        text: '',
        message: new AIMessageChunk({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', id: part.callId, name: part.name, args, index }] }),
      });
    }
    return undefined;
  }

  private async countTokens(text: string, cancellation: LmCancellation): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const counted = await Promise.race([
        Promise.resolve(this.chat.countTokens(text, cancellation.token)),
        new Promise<undefined>((resolve) => (timer = setTimeout(resolve, COUNT_TOKENS_DEADLINE_MS, undefined))),
      ]);
      return typeof counted === 'number' && Number.isFinite(counted) && counted >= 0 ? counted : undefined;
    } catch {
      return undefined; // a provider without a counter: the agent estimates instead
    } finally {
      clearTimeout(timer);
    }
  }
}
