import type { ExecutorEvent } from '../../core/engine/executorEvents';

/** How a dry run shows a prompt it did not send: who would receive it, then each message. */
export function printPromptPreview(out: NodeJS.WritableStream, event: Extract<ExecutorEvent, { type: 'prompt-preview' }>): void {
  const target = event.tool === 'final' ? 'final answer' : `step ${event.stepId ?? event.tool} (${event.tool})`;
  out.write(`\n━━━ prompt for ${target} → ${event.model} ━━━\n`);
  for (const message of event.messages) out.write(`── ${message.role} ──\n${message.content}\n`);
}
