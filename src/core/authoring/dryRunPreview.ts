import type { CompiledActionPrompt } from '../actionPrompt/compiledActionPrompt';
import { CustomAgentExecutor } from '../engine/customAgentExecutor';
import type { ExecutorDependencies } from '../engine/executorTypes';
import type { ExecutorEvent, RunStatus } from '../engine/executorEvents';

export type PromptPreviewEvent = Extract<ExecutorEvent, { type: 'prompt-preview' }>;

/** How a dry run shows a prompt it did not send: who would receive it, then each message. Shared by the CLI and the editor. */
export function formatPromptPreview(event: PromptPreviewEvent): string {
  const own = event.tool === 'final' ? 'final answer' : `step ${event.stepId ?? event.tool} (${event.tool})`;
  const target = event.via ? `${own} in nested prompt ${event.via}` : own;
  return `\n━━━ prompt for ${target} → ${event.model} ━━━\n${event.messages.map((m) => `── ${m.role} ──\n${m.content}\n`).join('')}`;
}

export interface DryRunPreview {
  /** Every prompt the run would send, nested prompts' included, in the order they were built. */
  text: string;
  prompts: number;
  status: RunStatus;
}

/**
 * Runs a prompt as `codewiki run --dry-run` does (file tools run, no model is called) and
 * collects every prompt that would be sent, those of the prompts it calls included (the executor
 * passes a nested run's previews up, labelled with the calling step), as one read-only text.
 */
export async function dryRunPreview(
  deps: ExecutorDependencies,
  prompt: CompiledActionPrompt,
  inputs: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<DryRunPreview> {
  const parts: string[] = [];
  const warnings: string[] = [];
  let prompts = 0;
  const onEvent = (event: ExecutorEvent) => {
    if (event.type === 'prompt-preview') {
      prompts++;
      parts.push(formatPromptPreview(event));
    } else if (event.type === 'warning') warnings.push(event.message);
  };
  const result = await new CustomAgentExecutor(deps).run(prompt, inputs, { signal, onEvent, dryRun: true });
  const header = `Dry run of "${prompt.title}" (${prompt.id}): no model is called; ${prompts === 1 ? 'this is the prompt' : `these are the ${prompts} prompts`} a run would send.\n`;
  const footer = [
    ...warnings.map((w) => `! ${w}`),
    result.status === 'success' ? '' : `✗ the dry run ${result.status}${result.log.error ? `: ${result.log.error}` : ''}`,
  ].filter(Boolean);
  return { text: `${header}${parts.join('')}${footer.length ? `\n${footer.join('\n')}\n` : ''}`, prompts, status: result.status };
}
