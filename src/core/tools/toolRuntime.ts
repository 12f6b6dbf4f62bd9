import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { ModelRole } from '../llm/modelRoles';
import type { PromptMessage } from '../llm/promptMessages';
import type { UsageCollector } from '../llm/usage';

/**
 * Run-scoped services that LLM tools and nested action prompts need. It travels in LangChain's
 * `config.configurable`, the framework's own channel for per-call context, so tools stay plain
 * `tool()`s that can be registered once and reused by every run (and later by the agent mode).
 */
export interface ToolRuntime {
  /** The model for a role; `override` is a model name from the action prompt or llm_tools entry. */
  model(role: ModelRole, override?: string): BaseChatModel;
  modelName(role: ModelRole, override?: string): string;
  describeModelError(error: unknown, role: ModelRole): string;
  /** In a dry run, LLM tools report their prompt and return a stand-in instead of calling a model. */
  dryRun: boolean;
  /** `stepId` is the config's runName, which the executor sets to the step id. */
  reportPrompt(tool: string, model: string, messages: PromptMessage[], stepId?: string): void;
  /** `stepId` is the config's runName, as for reportPrompt. */
  warn(message: string, stepId?: string): void;
  /** Runs another action prompt as a sub-chain and returns its product. */
  runPrompt(promptId: string, inputs: Record<string, unknown>, config: RunnableConfig): Promise<unknown>;
}

const RUNTIME_KEY = 'codewikiRuntime';
const USAGE_KEY = 'codewikiUsage';

/** `usage` is the current invocation's collector: nested runs add their totals to it. */
export function withToolRuntime(runtime: ToolRuntime, usage?: UsageCollector): Record<string, unknown> {
  return { [RUNTIME_KEY]: runtime, [USAGE_KEY]: usage };
}

export function usageCollectorOf(config: RunnableConfig | undefined): UsageCollector | undefined {
  return config?.configurable?.[USAGE_KEY] as UsageCollector | undefined;
}

export function toolRuntimeOf(config: RunnableConfig | undefined): ToolRuntime {
  const runtime = config?.configurable?.[RUNTIME_KEY] as ToolRuntime | undefined;
  if (!runtime) throw new Error('this tool needs a model: run it through CustomAgentExecutor');
  return runtime;
}
