import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import type { CodewikiEngine } from '../codewikiEngine';
import type { ExecutorEvent } from '../engine/executorEvents';
import type { PromptRunMessage, PromptStepRecord, ChatMessage } from '../history/conversationTypes';
import { newMessageId } from '../history';
import { previewValue } from '../values/renderValue';
import type { SessionListener } from './sessionEvents';
import { reasoningThatFits } from './reasoningCap';

export interface PromptRunDeps {
  engine: CodewikiEngine;
  save(message: ChatMessage): Promise<void>;
  post: SessionListener;
  /** Where run logs are written, one JSON file per run. */
  runLogDir: string;
}

const STATUS: Record<string, PromptRunMessage['status']> = { success: 'done', cancelled: 'stopped', failed: 'error' };

/**
 * One /agent run, saved as it happens: the run (with the user's inputs) is stored before the
 * first step starts, each step is stored when it settles, and the answer and run log when it
 * ends, whatever the outcome. Seed 001's flow saved nothing; here a run is always in history.
 */
export async function runPromptRun(
  deps: PromptRunDeps,
  conversationId: string,
  prompt: CompiledActionPrompt,
  inputs: Record<string, unknown>,
  signal: AbortSignal,
): Promise<PromptRunMessage> {
  const run: PromptRunMessage = {
    kind: 'prompt-run',
    id: newMessageId(),
    createdAt: new Date().toISOString(),
    promptId: prompt.id,
    promptTitle: prompt.title,
    inputs,
    steps: prompt.steps.map((s) => ({ id: s.id, title: s.title, tool: s.tool, status: 'pending' })),
    answer: '',
    status: 'running',
  };
  await deps.save(run);
  deps.post({ type: 'promptRun/started', conversationId, run: structuredClone(run) });

  const stepOf = (id: string) => run.steps.find((s) => s.id === id);
  const update = (id: string, patch: Partial<PromptStepRecord>, persist: boolean) => {
    const step = stepOf(id);
    if (!step) return;
    Object.assign(step, patch);
    deps.post({ type: 'promptRun/step', runId: run.id, step: { ...step } });
    if (persist) void deps.save(run);
  };
  const onEvent = (event: ExecutorEvent) => {
    switch (event.type) {
      case 'tool-start':
        if (event.attempt === 1 && event.item === undefined) update(event.stepId, { status: 'running', inputPreview: previewValue(event.input) }, false);
        return;
      case 'tool-retry':
        return update(event.stepId, { attempts: event.attempt + 1 }, false);
      case 'tool-end':
        return update(
          event.stepId,
          {
            status: 'success',
            durationMs: Math.round(event.durationMs),
            tokens: event.tokens.total,
            attempts: event.attempts,
            outputPreview: event.outputPreview,
          },
          true,
        );
      case 'tool-error':
        if (event.handling === 'fallback') return;
        return update(event.stepId, { status: 'failed', durationMs: Math.round(event.durationMs), attempts: event.attempts, error: event.error }, true);
      case 'step-skipped':
        return update(event.stepId, { status: 'skipped', outputPreview: event.reason }, true);
      case 'step-cancelled':
        return update(event.stepId, { status: 'cancelled' }, false);
      case 'warning':
        (run.warnings ??= []).push(event.message);
        if (event.stepId && stepOf(event.stepId)) return update(event.stepId, { warnings: [...(stepOf(event.stepId)!.warnings ?? []), event.message] }, true);
        void deps.save(run);
        return;
      case 'llm-token':
        run.answer += event.text;
        deps.post({ type: 'promptRun/chunk', runId: run.id, text: event.text });
        return;
      case 'llm-reasoning': {
        const text = reasoningThatFits(run.reasoning, event.text);
        if (!text) return;
        run.reasoning = (run.reasoning ?? '') + text;
        deps.post({ type: 'promptRun/reasoning', runId: run.id, text });
        return;
      }
      default:
        return;
    }
  };

  const result = await deps.engine.executor.run(prompt, inputs, { signal, onEvent });
  run.status = STATUS[result.status];
  run.tokens = result.log.total_tokens;
  if (result.log.final?.tokens?.total) run.answerTokens = result.log.final.tokens.total;
  if (result.log.duration_ms !== undefined) run.durationMs = Math.round(result.log.duration_ms);
  const budget = result.log.input_budget;
  if (budget && result.log.final?.sent)
    run.context = {
      promptTokens: result.log.final.tokens.input,
      budgetTokens: budget.tokens,
      ...(budget.server_context ? { serverContext: budget.server_context } : {}),
    };
  if (!prompt.finalPrompt && result.status === 'success') run.answer = previewValue(result.output, 100_000);
  if (result.log.error && result.status !== 'success') run.error = result.log.error;
  // Named after the run_id inside it, so the file and the record it holds are found by the same id.
  run.runLogPath = await writeRunLog(deps.runLogDir, result.log.run_id, result.log).catch(() => undefined);
  await deps.save(run);
  deps.post({ type: 'promptRun/done', run: structuredClone(run) });
  return run;
}

async function writeRunLog(dir: string, runId: string, log: unknown): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${runId}.json`);
  await writeFile(file, `${JSON.stringify(log, null, 2)}\n`);
  return file;
}
