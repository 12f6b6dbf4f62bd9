import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import { cutOffWarning } from '../llm/streamChat';
import { addUsage } from '../llm/usage';
import { resolveTemplateValue } from '../template/renderTemplate';
import { isCancellation } from '../util/cancellation';
import { fitFinalPrompt } from './contextBudget';
import type { ExecutorOptions, RunResult } from './executorTypes';
import type { ExecutorEventListener } from './executorEvents';
import type { RunRuntime } from './runRuntime';
import type { RunLog } from './runLog';
import { streamFinalAnswer } from './streamFinalAnswer';

interface CompletionParts {
  prompt: CompiledActionPrompt;
  variables: Map<string, unknown>;
  failure: string | undefined;
  log: RunLog;
  env: { runtime: RunRuntime; signal: AbortSignal; emit: ExecutorEventListener };
  controller: AbortController;
  dryRun: boolean;
  options: ExecutorOptions;
  started: number;
}

/** After the chain: the final answer (or the chain's own output), then the closing status. */
export async function completeRun(parts: CompletionParts): Promise<RunResult> {
  const { prompt, variables, failure, log, env, dryRun } = parts;
  let output: unknown = null;
  if (failure) return finish(parts, 'failed', output, failure);
  if (env.signal.aborted) return finish(parts, 'cancelled', output);

  if (!prompt.finalPrompt) {
    output = prompt.outputTemplate ? resolveTemplateValue(prompt.outputTemplate, variables) : lastOutput(prompt, variables);
    log.output = output;
    return finish(parts, 'success', output);
  }

  const budget = await env.runtime.inputBudget(parts.options.maxInputTokens);
  log.input_budget = budget.serverContext ? { tokens: budget.tokens, server_context: budget.serverContext } : { tokens: budget.tokens };
  const fitted = fitFinalPrompt(prompt.finalPrompt, variables, budget.tokens);
  for (const message of fitted.warnings) env.emit({ type: 'warning', message });
  const model = env.runtime.modelName('main');
  log.final = { model, messages: fitted.messages, output: '', tokens: { input: 0, output: 0, total: 0 }, sent: !dryRun };
  if (dryRun) {
    env.emit({ type: 'prompt-preview', tool: 'final', model, messages: fitted.messages });
    return finish(parts, 'success', null);
  }

  env.emit({ type: 'llm-start', model, messages: fitted.messages });
  const llmStarted = performance.now();
  try {
    const answer = await streamFinalAnswer(env.runtime.model('main'), fitted.messages, env.signal, env.emit);
    Object.assign(log.final, { output: answer.text, tokens: answer.tokens, duration_ms: Math.round(performance.now() - llmStarted) });
    log.total_tokens = addUsage(log.total_tokens, answer.tokens);
    if (answer.finishReason === 'length') env.emit({ type: 'warning', message: cutOffWarning('The answer') });
    env.emit({ type: 'llm-end', text: answer.text, tokens: answer.tokens, durationMs: performance.now() - llmStarted });
    log.output = answer.text;
    return finish(parts, 'success', answer.text);
  } catch (error) {
    const partial = (error as { partialText?: string }).partialText ?? '';
    Object.assign(log.final, { output: partial, duration_ms: Math.round(performance.now() - llmStarted) });
    log.output = partial;
    if (isCancellation(error, env.signal)) return finish(parts, 'cancelled', partial);
    return finish(parts, 'failed', partial, `final answer failed: ${env.runtime.describeModelError(error, 'main')}`);
  }
}

function finish(parts: CompletionParts, status: RunResult['status'], output: unknown, error?: string): RunResult {
  const { log, env, started } = parts;
  log.status = status;
  log.completed_at = new Date().toISOString();
  log.duration_ms = Math.round(performance.now() - started);
  if (error) log.error = error;
  else if (status === 'cancelled') log.error = 'cancelled';
  env.emit({ type: 'chain-end', status, durationMs: log.duration_ms, tokens: log.total_tokens, error: log.error });
  return { status, output, log };
}

function lastOutput(prompt: CompiledActionPrompt, variables: Map<string, unknown>): unknown {
  const last = [...prompt.steps].reverse().find((s) => s.outputVariable);
  return last ? variables.get(last.outputVariable!) : null;
}
