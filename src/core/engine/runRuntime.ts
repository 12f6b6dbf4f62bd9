import { formatDiagnostic } from '../yaml/diagnostics';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import { ActionPromptError } from '../yaml/diagnostics';
import { resolveRunInputs } from '../actionPrompt/runInputs';
import { createYamlLlmTool } from '../tools/llm/yamlLlmTool';
import { inputBudgetFor } from '../llm/serverContextSize';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ModelRole } from '../llm/modelRoles';
import { usageCollectorOf, type ToolRuntime } from '../tools/toolRuntime';
import type { ExecutorDependencies, RunOptions, RunResult } from './executorTypes';
import type { ExecutorEvent, ExecutorEventListener } from './executorEvents';
import type { RunLog } from './runLog';

export interface RunRuntime extends ToolRuntime {
  /** The shared registry plus this prompt's own llm_tools. */
  registry: ToolRegistry;
  /** The final prompt's budget: the configured one, lowered to fit the main server's context window when it reports one. */
  inputBudget(configured: number): Promise<{ tokens: number; serverContext?: number }>;
}

interface RuntimeParts {
  prompt: CompiledActionPrompt;
  deps: ExecutorDependencies;
  dryRun: boolean;
  depth: number;
  log: RunLog;
  emit: ExecutorEventListener;
  runNested(prompt: CompiledActionPrompt, inputs: Record<string, unknown>, options: RunOptions): Promise<RunResult>;
}

/** Builds the per-run services tools see through `config.configurable` (see toolRuntime.ts). */
export function createRunRuntime(parts: RuntimeParts): RunRuntime {
  const { prompt, deps, dryRun, depth, log, emit } = parts;
  const registry = deps.registry.clone();
  for (const definition of prompt.llmTools)
    registry.register(createYamlLlmTool(definition), { category: 'llm', kind: 'think', displayName: definition.name, timeoutMs: 180_000 });

  const nameFor = (role: ModelRole, override?: string) => {
    const fromPrompt = role === 'main' ? prompt.models.main : prompt.models.tool;
    if (override === 'main' || override === 'tool') return { role: override as ModelRole, name: override === 'main' ? prompt.models.main : prompt.models.tool };
    return { role, name: override ?? fromPrompt };
  };
  const runtime: RunRuntime = {
    registry,
    dryRun,
    model(role, override) {
      const { role: r, name } = nameFor(role, override);
      return deps.models.model(r, name);
    },
    modelName(role, override) {
      const { role: r, name } = nameFor(role, override);
      return deps.models.modelName(r, name);
    },
    async inputBudget(configured) {
      const serverContext = dryRun ? undefined : await deps.models.contextSize?.('main');
      return { tokens: inputBudgetFor(configured, serverContext), serverContext };
    },
    describeModelError(error, role) {
      return deps.models.describeError(error, role);
    },
    reportPrompt(tool, model, messages, stepId) {
      const step = log.steps.find((s) => s.id === stepId) ?? log.steps.find((s) => s.tool === tool && s.status === 'running');
      if (step) (step.prompts ??= []).push({ model, messages });
      emit({ type: 'prompt-preview', stepId: step?.id, tool, model, messages });
    },
    warn(message, stepId) {
      emit({ type: 'warning', message, stepId: stepId && log.steps.some((s) => s.id === stepId) ? stepId : undefined });
    },
    async runPrompt(promptId: string, inputs: Record<string, unknown>, config: RunnableConfig) {
      const nested = deps.prompts?.get(promptId);
      if (!nested) throw new Error(`action prompt "${promptId}" is not available`);
      // Same checks and defaults as a user's run; file tools still confine any path.
      const resolved = await resolveRunInputs(nested, inputs).catch((error: unknown) => {
        if (!(error instanceof ActionPromptError)) throw error;
        throw new Error(`nested prompt "${promptId}": ${error.diagnostics.map((d) => `${d.message} (${nested.file}:${d.line})`).join('; ')}`);
      });
      // A dry run shows every prompt it would send, the nested prompts' included, labelled with the calling step.
      const via = config.runName ? `${promptId} (from step ${config.runName})` : promptId;
      const onEvent = dryRun
        ? (event: ExecutorEvent) => event.type === 'prompt-preview' && emit({ ...event, via: event.via ? `${event.via} in ${via}` : via })
        : undefined;
      const result = await parts.runNested(nested, resolved, { signal: config.signal, dryRun, depth: depth + 1, onEvent });
      usageCollectorOf(config)?.record(result.log.total_tokens);
      // The nested run's warnings (a removed claim, a cut-off answer) belong to this run's log too, on the calling step.
      // Its load-time warnings are the prompt file's, said once when it loaded, not once per call.
      const fileWarnings = new Set(nested.warnings.map(formatDiagnostic));
      for (const message of result.log.warnings) if (!fileWarnings.has(message)) runtime.warn(`${promptId}: ${message}`, config.runName);
      if (result.status !== 'success') throw new Error(`nested prompt "${promptId}" ${result.status}: ${result.log.error ?? ''}`.trim());
      return result.output;
    },
  };
  return runtime;
}
