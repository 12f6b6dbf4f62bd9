import type { PromptRunMessage, PromptStepRecord, AgentToolCall, AgentTurnMessage, AssistantMessage, ChatMessage, Conversation } from './conversationTypes';
import { agentTurnAnswer } from './agentTurnAnswer';

/**
 * A conversation as a Markdown document someone can read or paste elsewhere: user turns, answers,
 * /agent runs with what was asked (prompt title and inputs), how it went (steps) and the answer, and
 * agent-mode turns with every tool call (arguments, approval, status, output) and the answer.
 */
export function conversationToMarkdown(conversation: Conversation): string {
  const parts = [`# ${oneLine(conversation.title)}`, `_Created ${conversation.createdAt} · updated ${conversation.updatedAt}_`];
  for (const message of conversation.messages) parts.push(messageToMarkdown(message));
  return parts.join('\n\n') + '\n';
}

function messageToMarkdown(message: ChatMessage): string {
  if (message.kind === 'user') return `## You\n\n${message.text}`;
  if (message.kind === 'assistant') return assistantToMarkdown(message);
  if (message.kind === 'agent-turn') return agentTurnToMarkdown(message);
  return agentRunToMarkdown(message);
}

function agentTurnToMarkdown(turn: AgentTurnMessage): string {
  const parts = [turn.model ? `## Agent (${oneLine(turn.model)})` : '## Agent'];
  if (turn.context?.length) {
    const refs = turn.context.map((ref) => `\`${ref.path}\`${ref.startLine ? ` lines ${ref.startLine}–${ref.endLine ?? ref.startLine}` : ''}`);
    parts.push(`_Context: ${refs.join(', ')}_`);
  }
  if (turn.fallback) parts.push(`_No tool calling: ${oneLine(turn.fallback)}_`);
  if (turn.toolCalls.length > 0) parts.push('**Tool calls**', ...turn.toolCalls.map((call, i) => toolCallToMarkdown(call, i + 1)));
  const { answer, sentBack } = agentTurnAnswer(turn);
  if (sentBack) parts.push(`**Sent back**\n\n${sentBack.replace(/^/gm, '> ')}`);
  if (answer) parts.push(`**Answer**\n\n${answer}`);
  if (turn.warnings?.length) parts.push(`_Warnings: ${turn.warnings.map(oneLine).join('; ')}_`);
  parts.push(statusNote(turn.status === 'streaming' ? 'running' : turn.status, turn.error));
  return parts.filter(Boolean).join('\n\n');
}

const CALL_MARKS: Record<AgentToolCall['status'], string> = {
  ok: '✓',
  error: '✗',
  denied: '⊘',
  skipped: '↷',
  cancelled: '■',
  running: '…',
  'awaiting-approval': '?',
};

function toolCallToMarkdown(call: AgentToolCall, number: number): string {
  const details: string[] = [call.status];
  if (call.durationMs !== undefined) details.push(formatDuration(call.durationMs));
  if (call.approval) details.push(approvalWords(call.approval));
  const nested = call.parentCallId ? ' (sub-agent)' : '';
  const lines = [`${number}. ${CALL_MARKS[call.status]} \`${call.tool}\`${nested} ${oneLine(call.argsSummary)} (${details.join(', ')})`.replace(/ {2,}/g, ' ')];
  if (call.preview?.type === 'diff' && call.preview.diff) lines.push(fenced(call.preview.diff, 'diff'));
  else if (call.preview?.type === 'command') lines.push(fenced(`$ ${call.preview.command}`, 'sh'));
  if (call.error) lines.push(`Error: ${oneLine(call.error)}`);
  else if (call.output) lines.push(fenced(call.output, 'text'));
  return lines.join('\n\n');
}

function approvalWords(approval: NonNullable<AgentToolCall['approval']>): string {
  const who = approval.by === 'policy' ? 'by your settings' : approval.by === 'conversation' ? 'for this conversation' : 'by you';
  const what = approval.decision === 'deny' ? 'denied' : approval.decision === 'allow-conversation' ? 'allowed for the conversation' : 'allowed';
  return `${what} ${who}${approval.reason ? `: ${oneLine(approval.reason)}` : ''}`;
}

/** A fence longer than any backtick run in the text, so tool output cannot close it early. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

function assistantToMarkdown(message: AssistantMessage): string {
  const heading = message.model ? `## Assistant (${oneLine(message.model)})` : '## Assistant';
  return [heading, message.text, statusNote(message.status, message.error)].filter(Boolean).join('\n\n');
}

function agentRunToMarkdown(run: PromptRunMessage): string {
  const parts = [`## Agent run: ${oneLine(run.promptTitle)}`];
  const inputs = Object.entries(run.inputs);
  if (inputs.length > 0) parts.push('**Inputs**\n\n' + inputs.map(([name, value]) => `- ${name}: ${inputValue(value)}`).join('\n'));
  if (run.steps.length > 0) parts.push('**Steps**\n\n' + run.steps.map((step, i) => `${i + 1}. ${stepLine(step)}`).join('\n'));
  if (run.answer) parts.push(`**Answer**\n\n${run.answer}`);
  parts.push(statusNote(run.status, run.error));
  if (run.runLogPath) parts.push(`_Run log: ${run.runLogPath}_`);
  return parts.filter(Boolean).join('\n\n');
}

function stepLine(step: PromptStepRecord): string {
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
