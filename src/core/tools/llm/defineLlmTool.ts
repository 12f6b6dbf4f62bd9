import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { z } from 'zod';
import type { PromptMessage } from '../../llm/promptMessages';
import { cutOffWarning, streamChat } from '../../llm/streamChat';
import { codewikiTool } from '../codewikiTool';
import type { ModelRole } from '../../llm/modelRoles';
import { toolRuntimeOf, type ToolRuntime } from '../toolRuntime';

/** A message in an LLM tool's conversation; `ai` appears when a repair turn replays the model's answer. */
export interface ToolMessage {
  role: 'system' | 'human' | 'ai';
  content: string;
}

export interface LlmToolContext<I> {
  input: I;
  runtime: ToolRuntime;
  /** The tool's first prompt, from `messages(input)`. */
  prompt: ToolMessage[];
  /** Sends messages to the tool's model and returns the answer text. */
  ask(messages: ToolMessage[]): Promise<string>;
  /** A warning shown on the calling step and on the run. */
  warn(message: string): void;
}

export interface LlmToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S;
  /** "tool" (default) or "main", or a model name. */
  model?: string;
  /** The answer is stopped after about this many tokens and what came is kept (with a warning on the step). */
  maxTokens?: number;
  /** The first prompt, also what a dry run shows. */
  messages(input: z.infer<S>): ToolMessage[];
  /** Produces the tool output; usually asks once and parses. */
  run(context: LlmToolContext<z.infer<S>>): Promise<unknown>;
  /** What a dry run returns instead, so later file steps still have something to work on. */
  dryRunResult(input: z.infer<S>, runtime: ToolRuntime): unknown;
}

/** Characters per token of English and code, for a cap counted on the client (tokenEstimate.ts uses the same). */
const CHARS_PER_TOKEN = 4;

/**
 * LLM-as-a-tool: a LangChain `tool()` whose body is a sub-chain on the tool model. The model
 * comes from the run's ToolRuntime at call time, and the caller's config (signal, callbacks)
 * is passed on, so cancellation and token counting reach the nested request.
 */
export function defineLlmTool<S extends z.ZodObject>(spec: LlmToolSpec<S>) {
  return codewikiTool(
    async (input: z.infer<S>, config: RunnableConfig) => {
      const runtime = toolRuntimeOf(config);
      const role: ModelRole = spec.model === 'main' ? 'main' : 'tool';
      const override = spec.model && spec.model !== 'main' && spec.model !== 'tool' ? spec.model : undefined;
      if (runtime.dryRun) {
        runtime.reportPrompt(spec.name, runtime.modelName(role, override), spec.messages(input).map(toPromptMessage), config.runName);
        return spec.dryRunResult(input, runtime);
      }
      const model = runtime.model(role, override);
      const warn = (message: string) => runtime.warn(message, config.runName);
      const ask = async (messages: ToolMessage[]) => {
        // Streamed like the final answer (see streamChat.ts): the idle timeout then applies per chunk, not to the whole generation.
        // The cap is the client's: the request is stopped, which every server honours (max_tokens is not sent, so a
        // server's cached prompt prefix is the same with or without it).
        const capped = spec.maxTokens ? new AbortController() : undefined;
        const signal = capped ? AbortSignal.any([capped.signal, ...(config?.signal ? [config.signal] : [])]) : config?.signal;
        const maxChars = (spec.maxTokens ?? 0) * CHARS_PER_TOKEN;
        let length = 0;
        const onToken = capped
          ? (text: string) => {
              length += text.length;
              if (length >= maxChars && !capped.signal.aborted) capped.abort(new Error('answer cap reached'));
            }
          : undefined;
        const answer = await streamChat(model, messages.map(toLangChain), { signal, callbacks: config?.callbacks, onToken }).catch((error: unknown) => {
          if (capped?.signal.aborted && !config?.signal?.aborted) {
            warn(`${spec.name}'s answer in step "${config.runName ?? spec.name}" was stopped at about ${spec.maxTokens} tokens (max_tokens)`);
            return { text: String((error as { partialText?: unknown }).partialText ?? ''), reasoning: '', finishReason: 'length', usage: undefined };
          }
          if (config?.signal?.aborted) throw error;
          throw new Error(runtime.describeModelError(error, role));
        });
        if (answer.finishReason === 'length' && !capped?.signal.aborted) warn(cutOffWarning(`${spec.name}'s answer in step "${config.runName ?? spec.name}"`));
        // The thinking is never parsed as the answer (a file it mentions is not a file chosen); an answer that is all thinking is said.
        if (answer.reasoning && !answer.text.trim())
          warn(
            `${spec.name} in step "${config.runName ?? spec.name}": the model only thought (${answer.reasoning.length.toLocaleString('en-US')} characters) and wrote no answer`,
          );
        return answer.text;
      };
      return spec.run({ input, runtime, prompt: spec.messages(input), ask, warn });
    },
    { name: spec.name, description: spec.description, schema: spec.schema },
  );
}

function toLangChain(message: ToolMessage): BaseMessage {
  if (message.role === 'system') return new SystemMessage(message.content);
  if (message.role === 'ai') return new AIMessage(message.content);
  return new HumanMessage(message.content);
}

function toPromptMessage(message: ToolMessage): PromptMessage {
  return { role: message.role === 'system' ? 'system' : 'human', content: message.content };
}
