import type { AgentRunMessage, AgentStepRecord, AssistantMessage, ChatMessage, Conversation } from './conversationTypes';

/**
 * A conversation as a Markdown document someone can read or paste elsewhere: user turns, answers, and
 * /agent runs with what was asked (prompt title and inputs), how it went (steps) and the answer.
 */
export function conversationToMarkdown(conversation: Conversation): string {
  const parts = [`# ${oneLine(conversation.title)}`, `_Created ${conversation.createdAt} · updated ${conversation.updatedAt}_`];
  for (const message of conversation.messages) parts.push(messageToMarkdown(message));
  return parts.join('\n\n') + '\n';
}

function messageToMarkdown(message: ChatMessage): string {
  if (message.kind === 'user') return `## You\n\n${message.text}`;
  if (message.kind === 'assistant') return assistantToMarkdown(message);
  return agentRunToMarkdown(message);
}

function assistantToMarkdown(message: AssistantMessage): string {
  const heading = message.model ? `## Assistant (${oneLine(message.model)})` : '## Assistant';
  return [heading, message.text, statusNote(message.status, message.error)].filter(Boolean).join('\n\n');
}

function agentRunToMarkdown(run: AgentRunMessage): string {
  const parts = [`## Agent run: ${oneLine(run.promptTitle)}`];
  const inputs = Object.entries(run.inputs);
  if (inputs.length > 0) parts.push('**Inputs**\n\n' + inputs.map(([name, value]) => `- ${name}: ${inputValue(value)}`).join('\n'));
  if (run.steps.length > 0) parts.push('**Steps**\n\n' + run.steps.map((step, i) => `${i + 1}. ${stepLine(step)}`).join('\n'));
  if (run.answer) parts.push(`**Answer**\n\n${run.answer}`);
  parts.push(statusNote(run.status, run.error));
  if (run.runLogPath) parts.push(`_Run log: ${run.runLogPath}_`);
  return parts.filter(Boolean).join('\n\n');
}

function stepLine(step: AgentStepRecord): string {
  const details: string[] = [step.status];
  if (step.durationMs !== undefined) details.push(formatDuration(step.durationMs));
  if (step.attempts !== undefined && step.attempts > 1) details.push(`${step.attempts} attempts`);
  if (step.tokens !== undefined) details.push(`${step.tokens} tokens`);
  const error = step.error ? ` — ${oneLine(step.error)}` : '';
  return `\`${step.tool}\` (${details.join(', ')})${error}`;
}

function statusNote(status: string, error: string | undefined): string {
  if (status === 'done') return '';
  const reason = error ? `: ${oneLine(error)}` : '';
  return `_Status: ${status}${reason}_`;
}

/** Multi-line values go in a fenced block so they cannot break the surrounding list. */
function inputValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!text.includes('\n')) return text;
  const fence = text.includes('```') ? '~~~~' : '```';
  return `\n\n  ${fence}\n${text.replace(/^/gm, '  ')}\n  ${fence}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
