import type { CompiledStep } from '../actionPrompt/compiledActionPrompt';
import { backoffDelayMs } from '../llm/retryPolicy';
import { addUsage, UsageCollector } from '../llm/usage';
import { previewValue } from '../values/renderValue';
import { resolveTemplateString, type Variables } from '../template/renderTemplate';
import type { ToolRegistry } from '../tools/toolRegistry';
import { type ToolRuntime, withToolRuntime } from '../tools/toolRuntime';
import { sleep, throwIfAborted } from '../util/abort';
import { type ConcurrencyLimit, forEachBounded } from '../util/boundedConcurrency';
import { isCancellation, StepTimeoutError } from '../util/cancellation';
import { bindStepInput } from './bindStepInput';
import type { ExecutorEventListener } from './executorEvents';
import { invokeToolWithDeadline } from '../tools/invokeTool';
import { checkNestedPromptArguments } from './nestedPromptArguments';
import type { ItemResult, StepLog } from './runLog';
import { selectOutput } from './selectOutput';

export interface StepEnvironment {
  registry: ToolRegistry;
  runtime: ToolRuntime;
  /** The run's max_concurrency: every tool call of every step and item takes a slot. */
  limiter: ConcurrencyLimit;
  signal: AbortSignal;
  emit: ExecutorEventListener;
}

/** A failed step's output is null, except a for_each step's, which keeps the items that succeeded. */
export type StepOutcome = { status: 'success' | 'skipped'; output: unknown } | { status: 'failed' | 'cancelled'; output: unknown; error: string };

/** Runs one step with its condition, for_each, retry, timeout, select and on_error policy, filling in its log entry. */
export async function runStep(step: CompiledStep, variables: Variables, env: StepEnvironment, log: StepLog): Promise<StepOutcome> {
  if (step.condition && !step.condition.evaluate(variables)) {
    const reason = `condition "${step.condition.source}" is false`;
    Object.assign(log, { status: 'skipped', skipped_reason: reason });
    env.emit({ type: 'step-skipped', stepId: step.id, reason });
    return { status: 'skipped', output: null };
  }
  const started = performance.now();
  Object.assign(log, { status: 'running', started_at: new Date().toISOString() });
  try {
    const output = step.forEach ? await runForEach(step, variables, env, log) : await runWithPolicy(step, variables, env, log);
    finish(log, 'success', started);
    env.emit({
      type: 'tool-end',
      stepId: step.id,
      tool: step.tool,
      outputPreview: log.output_preview ?? '',
      durationMs: log.duration_ms!,
      tokens: log.tokens,
      attempts: log.attempts,
    });
    return { status: 'success', output };
  } catch (error) {
    const message = errorMessage(error);
    if (isCancellation(error, env.signal)) {
      finish(log, 'cancelled', started);
      env.emit({ type: 'step-cancelled', stepId: step.id });
      return { status: 'cancelled', output: null, error: 'cancelled' };
    }
    log.error = message;
    env.emit({
      type: 'tool-error',
      stepId: step.id,
      tool: step.tool,
      error: message,
      durationMs: performance.now() - started,
      attempts: log.attempts,
      handling: step.onError,
    });
    if (step.onError === 'fallback') return runFallback(step, variables, env, log, message, started);
    finish(log, 'failed', started);
    return { status: 'failed', output: error instanceof ForEachItemsFailed ? error.kept : null, error: message };
  }
}

/**
 * Items run in a pool of `concurrency` workers. The first failed item stops the pool: no new item
 * starts, the ones in flight finish (so their tokens are counted and nothing runs after the step
 * has settled), and the step fails with the items that succeeded kept (see ForEachItemsFailed).
 * A cancelled run stops the pool the same way.
 */
async function runForEach(step: CompiledStep, variables: Variables, env: StepEnvironment, log: StepLog): Promise<unknown[]> {
  const forEach = step.forEach!;
  const items = toList(resolveTemplateString(forEach.template, variables), forEach.template);
  log.items = items.length;
  const results = new Array<ItemOutcome>(items.length);
  const runItem = async (item: unknown, index: number) => {
    const scoped = new Map(variables).set(forEach.as, item).set('index', index);
    try {
      results[index] = { ok: true, value: await runWithPolicy(step, scoped, env, log, { item: index }) };
    } catch (error) {
      results[index] = { ok: false, error };
      throw error;
    }
  };
  try {
    await forEachBounded(items, forEach.concurrency, runItem, { signal: env.signal });
  } catch {
    // Every item's outcome is in `results`; a cancellation is rethrown just below.
  }
  log.item_results = items.map((_, index) => itemResult(index, results[index], env.signal));
  throwIfAborted(env.signal);
  const failures = results.flatMap((result, index) => (result && !result.ok ? [{ item: index, error: errorMessage(result.error) }] : []));
  const kept = results.flatMap((result) => (result?.ok ? [result.value] : []));
  log.output_preview = previewValue(kept);
  if (failures.length === 0) return kept;
  log.item_errors = failures;
  const notStarted = items.length - results.filter(Boolean).length;
  const summary = `${failures.length} of ${items.length} items failed (item ${failures[0].item}: ${failures[0].error})${notStarted ? `; ${notStarted} not started` : ''}`;
  env.emit({ type: 'warning', stepId: step.id, message: `step "${step.id}": ${summary}; kept the ${kept.length} that succeeded` });
  throw new ForEachItemsFailed(summary, kept);
}

type ItemOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function itemResult(item: number, outcome: ItemOutcome | undefined, signal: AbortSignal): ItemResult {
  if (!outcome) return { item, status: 'not_started' };
  if (outcome.ok) return { item, status: 'success' };
  return isCancellation(outcome.error, signal) ? { item, status: 'cancelled' } : { item, status: 'failed', error: errorMessage(outcome.error) };
}

/** A for_each step whose pool stopped on a failed item; `kept` holds the items that succeeded, in order. */
class ForEachItemsFailed extends Error {
  constructor(
    message: string,
    readonly kept: unknown[],
  ) {
    super(message);
  }
}

interface Invocation {
  /** The for_each item being run. */
  item?: number;
  /** Set for a fallback step: its input and outcome go to the failed step's `fallback` log, not over the step's own. */
  fallback?: NonNullable<StepLog['fallback']>[number];
  /** The step whose log and events this invocation belongs to (a fallback's failed step). */
  owner?: CompiledStep;
}

/** One invocation (or one for_each item): bind input, then attempt up to `retry.attempts` times. */
async function runWithPolicy(step: CompiledStep, variables: Variables, env: StepEnvironment, log: StepLog, invocation: Invocation = {}): Promise<unknown> {
  const { item, fallback } = invocation;
  const owner = invocation.owner ?? step;
  const entry = env.registry.get(step.tool);
  if (!entry) throw new Error(`unknown tool "${step.tool}"`);
  const args = bindStepInput(step.input, variables, env.registry.jsonSchema(step.tool));
  if (fallback) fallback.input = args;
  else if (item === undefined) log.input = args;
  checkNestedPromptArguments(entry, args);
  const timeoutMs = step.timeoutMs ?? entry.metadata.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(env.signal);
    log.attempts = Math.max(log.attempts, attempt);
    env.emit({ type: 'tool-start', stepId: owner.id, tool: step.tool, input: args, attempt, item });
    const usage = new UsageCollector();
    try {
      const raw = await env.limiter.run(
        () =>
          invokeToolWithDeadline(
            entry,
            args,
            { callbacks: [usage], configurable: withToolRuntime(env.runtime, usage), runName: owner.id },
            env.signal,
            timeoutMs,
          ),
        env.signal,
      );
      log.tokens = addUsage(log.tokens, usage.usage);
      const output = step.select ? applySelect(raw, step, owner, env, log) : raw;
      if (item === undefined && !fallback) log.output_preview = previewValue(output);
      return output;
    } catch (error) {
      log.tokens = addUsage(log.tokens, usage.usage);
      if (isCancellation(error, env.signal) || attempt >= step.retry.attempts) throw error;
      // The one back-off of the core (retryPolicy.ts): doubling from the step's `backoff`, capped, with jitter.
      const delayMs = backoffDelayMs(attempt - 1, step.retry.backoffMs);
      env.emit({ type: 'tool-retry', stepId: owner.id, attempt, error: errorMessage(error), delayMs });
      await sleep(delayMs, env.signal);
    }
  }
}

async function runFallback(
  step: CompiledStep,
  variables: Variables,
  env: StepEnvironment,
  log: StepLog,
  failure: string,
  started: number,
): Promise<StepOutcome> {
  const scoped = new Map(variables).set('error', failure);
  let output: unknown = null;
  log.fallback = [];
  try {
    for (const fallback of step.fallback) {
      const entry: NonNullable<StepLog['fallback']>[number] = { id: fallback.id, tool: fallback.tool, status: 'running' };
      log.fallback.push(entry);
      try {
        output = await runWithPolicy(fallback, scoped, env, log, { fallback: entry, owner: step });
        Object.assign(entry, { status: 'success', output_preview: previewValue(output) });
      } catch (error) {
        Object.assign(entry, { status: isCancellation(error, env.signal) ? 'cancelled' : 'failed', error: errorMessage(error) });
        throw error;
      }
    }
  } catch (error) {
    const message = `${failure}; fallback failed too: ${errorMessage(error)}`;
    log.error = message;
    finish(log, isCancellation(error, env.signal) ? 'cancelled' : 'failed', started);
    return { status: log.status === 'cancelled' ? 'cancelled' : 'failed', output: null, error: message };
  }
  log.recovered_by = 'fallback';
  log.output_preview = previewValue(output);
  env.emit({ type: 'warning', stepId: step.id, message: `step "${step.id}" failed (${failure}); used its fallback` });
  finish(log, 'success', started);
  env.emit({
    type: 'tool-end',
    stepId: step.id,
    tool: step.tool,
    outputPreview: log.output_preview,
    durationMs: log.duration_ms!,
    tokens: log.tokens,
    attempts: log.attempts,
  });
  return { status: 'success', output };
}

/** A `select` that matches nothing gives null and a warning on the step, never a silent empty value. */
function applySelect(raw: unknown, step: CompiledStep, owner: CompiledStep, env: StepEnvironment, log: StepLog): unknown {
  const selected = selectOutput(raw, step.select!);
  if (selected.matched) return selected.value;
  const message = `step "${owner.id}": select "${step.select}" matched nothing in the output of ${step.tool}; the value is ${selected.value === null ? 'null' : 'an empty list'}`;
  if (!log.warnings?.includes(message)) env.emit({ type: 'warning', stepId: owner.id, message });
  return selected.value;
}

function finish(log: StepLog, status: StepLog['status'], started: number): void {
  log.status = status;
  log.duration_ms = Math.round((performance.now() - started) * 100) / 100;
}

/** for_each takes a list; text (e.g. a model's answer) is split into non-empty lines. */
function toList(value: unknown, template: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string')
    return value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  if (value === null || value === undefined) return [];
  throw new Error(`for_each "${template}" must give a list, got ${typeof value}`);
}

export function errorMessage(error: unknown): string {
  if (error instanceof StepTimeoutError) return error.message;
  if (error instanceof Error) return error.message.split('\n')[0] || error.name;
  return String(error);
}
