import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import type { ModelProvider } from '../llm/modelProvider';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ExecutorEventListener, RunStatus } from './executorEvents';
import type { RunLog } from './runLog';

/**
 * The executor's own types, in one module that imports no engine code: customAgentExecutor.ts, runRuntime.ts
 * and completeRun.ts all use them, and none of them may import another just for a type (no type cycles).
 */

export interface ExecutorOptions {
  /** Steps and for_each items in flight at once, across the whole run. */
  maxConcurrency: number;
  /** The final prompt never exceeds this estimate of input tokens. */
  maxInputTokens: number;
}

export interface ExecutorDependencies {
  registry: ToolRegistry;
  models: ModelProvider;
  /** Looks up other action prompts for nested chains. */
  prompts?: { get(id: string): CompiledActionPrompt | undefined };
  options?: Partial<ExecutorOptions>;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: ExecutorEventListener;
  dryRun?: boolean;
  /** Nesting depth, to stop prompts that call themselves. */
  depth?: number;
}

export interface RunResult {
  status: RunStatus;
  output: unknown;
  log: RunLog;
}
