import type { RunnableConfig } from '@langchain/core/runnables';
import { CodewikiTool } from './codewikiTool';
import type { RegisteredTool } from './toolMetadata';
import { linkedAbortController } from '../util/abort';
import { StepTimeoutError } from '../util/cancellation';

/**
 * The one way a registered tool is called, by a workflow step (engine/stepRunner.ts), an agent's tool call
 * (agent/toolCallRunner.ts) and a call pasted into the tool tester (which goes through the agent's runner).
 * A CodewikiTool is run directly (validated by its zod schema, without LangChain's tracing wrappers); any
 * other LangChain tool through `invoke`.
 */
export function invokeRegisteredTool(entry: RegisteredTool, args: Record<string, unknown>, config: RunnableConfig): Promise<unknown> {
  return entry.tool instanceof CodewikiTool ? entry.tool.run(args, config) : entry.tool.invoke(args, config);
}

/**
 * One tool call with a deadline. The tool gets an AbortSignal that fires on cancel or timeout;
 * the race also settles the call when a tool ignores its signal, so a stuck tool can never
 * hold a run past its deadline.
 */
export async function invokeToolWithDeadline(
  entry: RegisteredTool,
  args: Record<string, unknown>,
  config: RunnableConfig,
  parentSignal: AbortSignal,
  timeoutMs: number,
): Promise<unknown> {
  return runWithDeadline((signal) => invokeRegisteredTool(entry, args, { ...config, signal }), parentSignal, timeoutMs);
}

/**
 * Runs `work` with a signal that fires on cancel or after `timeoutMs`. The race also settles when the work
 * ignores its signal, so nothing stuck can hold a caller past its deadline. Shared by workflow steps and
 * the agent's tool calls (whose approved write may be a prepared change rather than a plain invocation).
 */
export async function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, parentSignal: AbortSignal, timeoutMs: number): Promise<T> {
  const { controller, dispose } = linkedAbortController(parentSignal);
  const timer = setTimeout(() => controller.abort(new StepTimeoutError(timeoutMs)), timeoutMs);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(controller.signal.reason);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined); // the race below observes it; avoid an unhandled rejection when the work wins
  try {
    return await Promise.race([work(controller.signal), aborted]);
  } finally {
    clearTimeout(timer);
    if (onAbort) controller.signal.removeEventListener('abort', onAbort);
    dispose();
  }
}
