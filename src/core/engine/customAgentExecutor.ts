import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_CONCURRENCY } from '../actionPrompt/actionPromptSchema';
import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import { formatDiagnostic } from '../yaml/diagnostics';
import { withInputDefaults } from '../actionPrompt/runInputs';
import { addUsage, ZERO_USAGE } from '../llm/usage';
import type { ModelProvider } from '../llm/modelProvider';
import type { ExecutorEvent, ExecutorEventListener } from './executorEvents';
import type { ExecutorDependencies, ExecutorOptions, RunOptions, RunResult } from './executorTypes';
import { completeRun } from './completeRun';
import { createRunRuntime } from './runRuntime';
import type { RunLog } from './runLog';
import { errorMessage, runStep, type StepEnvironment, type StepOutcome } from './stepRunner';
import { linkedAbortController } from '../util/abort';
import { ConcurrencyLimit } from '../util/boundedConcurrency';

const DEFAULT_EXECUTOR_OPTIONS: ExecutorOptions = { maxConcurrency: DEFAULT_MAX_CONCURRENCY, maxInputTokens: 24_000 };

const MAX_NESTING = 4;

/**
 * Runs an action prompt: schedules the tool chain as a dependency graph (a step starts the
 * moment the outputs it reads exist), applies each step's policies, then streams the final
 * answer. It never throws for a failed or cancelled run: the outcome is in the result and the
 * run log, which is complete in every case, because a run the user cannot look back at is a bug.
 */
export class CustomAgentExecutor {
  private readonly options: ExecutorOptions;

  constructor(private readonly deps: ExecutorDependencies) {
    this.options = { ...DEFAULT_EXECUTOR_OPTIONS, ...deps.options };
  }

  async run(prompt: CompiledActionPrompt, inputs: Record<string, unknown>, runOptions: RunOptions = {}): Promise<RunResult> {
    const depth = runOptions.depth ?? 0;
    if (depth > MAX_NESTING) throw new Error(`action prompts nested more than ${MAX_NESTING} deep (does "${prompt.id}" call itself?)`);
    const dryRun = runOptions.dryRun ?? false;
    const started = performance.now();
    const { controller, dispose } = linkedAbortController(runOptions.signal);
    const listener = runOptions.onEvent ?? (() => undefined);
    const log = newRunLog(prompt, inputs, dryRun, this.deps.models);
    const emit = (event: ExecutorEvent) => {
      if (event.type === 'warning') recordWarning(log, event.message, event.stepId);
      listener(event);
    };
    const runtime = createRunRuntime({ prompt, deps: this.deps, dryRun, depth, log, emit, runNested: (p, i, o) => this.run(p, i, o) });
    const env = {
      registry: runtime.registry,
      runtime,
      limiter: new ConcurrencyLimit(prompt.maxConcurrency ?? this.options.maxConcurrency),
      signal: controller.signal,
      emit,
    };

    emit({
      type: 'chain-start',
      runId: log.run_id,
      promptId: prompt.id,
      title: prompt.title,
      dryRun,
      steps: prompt.steps.map((s) => ({ id: s.id, title: s.title, tool: s.tool, dependsOn: prompt.dependencies[s.index].map((d) => prompt.steps[d].id) })),
    });
    // Load-time warnings (e.g. invisible characters) are shown where the run is watched, not only by `validate`.
    for (const warning of prompt.warnings) emit({ type: 'warning', message: formatDiagnostic(warning) });
    try {
      const variables = new Map<string, unknown>(Object.entries(withInputDefaults(prompt, inputs)));
      const failure = await this.runChain(prompt, variables, env, log, controller);
      log.total_tokens = log.steps.reduce((sum, s) => addUsage(sum, s.tokens), { ...ZERO_USAGE });
      return await completeRun({ prompt, variables, failure, log, env, controller, dryRun, options: this.options, started });
    } finally {
      dispose();
    }
  }

  /**
   * Resolves with the first aborting failure, if any, once every started step has settled.
   * Each step counts the dependencies it still waits for; settling a step releases only its
   * dependents, so scheduling costs O(steps + edges) however long the chain.
   */
  private runChain(
    prompt: CompiledActionPrompt,
    variables: Map<string, unknown>,
    env: StepEnvironment,
    log: RunLog,
    controller: AbortController,
  ): Promise<string | undefined> {
    const steps = prompt.steps;
    const waitingOn = prompt.dependencies.map((deps) => deps.length);
    const dependents = steps.map(() => [] as number[]);
    prompt.dependencies.forEach((deps, index) => deps.forEach((dep) => dependents[dep].push(index)));
    const started = new Array<boolean>(steps.length).fill(false);
    /** Output variables of skipped steps, with the step that skipped: reading one skips the reader too. */
    const skippedOutputs = new Map<string, string>();
    let running = 0;
    let failure: string | undefined;
    return new Promise((resolve) => {
      const start = (index: number) => {
        const step = steps[index];
        started[index] = true;
        running++;
        const skippedInput = step.runIfSkipped ? undefined : step.needs.find((name) => skippedOutputs.has(name));
        if (skippedInput !== undefined) {
          const reason = `it reads {${skippedInput}}, the output of the skipped step "${skippedOutputs.get(skippedInput)}" (write {${skippedInput} ?? "…"} or run_if_skipped: true to run anyway)`;
          Object.assign(log.steps[index], { status: 'skipped', skipped_reason: reason });
          env.emit({ type: 'step-skipped', stepId: step.id, reason });
          // Settle on a later tick, like a step that ran, so every ready step is started in declared order first.
          void Promise.resolve().then(() => settle(index, { status: 'skipped', output: null }));
          return;
        }
        runStep(step, variables, env, log.steps[index]).then(
          (outcome) => settle(index, outcome),
          (error) => settle(index, { status: 'failed', output: null, error: errorMessage(error) }),
        );
      };
      const settle = (index: number, outcome: StepOutcome) => {
        const step = steps[index];
        running--;
        if (step.outputVariable) variables.set(step.outputVariable, outcome.output);
        if (step.outputVariable && outcome.status === 'skipped') skippedOutputs.set(step.outputVariable, step.id);
        if (outcome.status === 'failed' && step.onError === 'abort' && failure === undefined) {
          failure = `step "${step.id}" failed: ${outcome.error}`;
          controller.abort(new Error(failure));
        }
        for (const next of dependents[index]) {
          if (--waitingOn[next] === 0 && !controller.signal.aborted) start(next);
        }
        if (running === 0) finish();
      };
      const finish = () => {
        for (const step of steps) if (!started[step.index]) markCancelled(log, step.index, env.emit, step.id);
        resolve(failure);
      };
      // Declared order among the ready steps keeps logs and events predictable.
      for (const step of steps) if (waitingOn[step.index] === 0 && !controller.signal.aborted) start(step.index);
      if (running === 0) finish();
    });
  }
}

function recordWarning(log: RunLog, message: string, stepId: string | undefined): void {
  log.warnings.push(message);
  const step = stepId === undefined ? undefined : log.steps.find((s) => s.id === stepId);
  if (step) (step.warnings ??= []).push(message);
}

function markCancelled(log: RunLog, index: number, emit: ExecutorEventListener, stepId: string): void {
  log.steps[index].status = 'cancelled';
  emit({ type: 'step-cancelled', stepId });
}

function newRunLog(prompt: CompiledActionPrompt, inputs: Record<string, unknown>, dryRun: boolean, models: ModelProvider): RunLog {
  return {
    version: 1,
    run_id: randomUUID(),
    prompt_id: prompt.id,
    prompt_title: prompt.title,
    prompt_file: prompt.file,
    dry_run: dryRun,
    status: 'running',
    started_at: new Date().toISOString(),
    inputs,
    models: { main: models.modelName('main', prompt.models.main), tool: models.modelName('tool', prompt.models.tool) },
    steps: prompt.steps.map((s) => ({ id: s.id, title: s.title, tool: s.tool, status: 'pending', attempts: 0, tokens: { ...ZERO_USAGE } })),
    total_tokens: { ...ZERO_USAGE },
    warnings: [],
  };
}
