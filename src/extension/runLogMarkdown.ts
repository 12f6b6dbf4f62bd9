import type { RunLog, StepLog } from '../core/engine/runLog';

/** Longest input or output shown per step; the raw JSON keeps everything. */
const PREVIEW_CHARS = 2_000;

const STEP_STATUS: Record<StepLog['status'], string> = {
  pending: '○ pending',
  running: '… running',
  success: '✓ done',
  skipped: '↷ skipped',
  failed: '✗ failed',
  cancelled: '⊘ cancelled',
};

const RUN_STATUS: Record<RunLog['status'], string> = { success: '✓ done', failed: '✗ failed', cancelled: '⊘ stopped', running: '… running' };

/**
 * A run log as a page to read: the run's outcome, its inputs, then one section per step (status,
 * time, tokens, input, output, warnings, error) and the final answer. `rawFileName` is the JSON file
 * beside it (named after the run_id), linked for everything this page shortens.
 */
export function runLogMarkdown(log: RunLog, rawFileName: string): string {
  const lines: string[] = [];
  lines.push(`# ${escapeInline(log.prompt_title)} — run log`, '');
  lines.push(`[Open the raw JSON](./${encodeURI(rawFileName)}) · run_id ${code(log.run_id)}`, '');
  lines.push('| | |', '|---|---|');
  lines.push(`| Prompt | ${code(log.prompt_id, true)} (${escapeCell(log.prompt_file)}) |`);
  lines.push(`| Status | ${RUN_STATUS[log.status] ?? log.status}${log.dry_run ? ' (dry run)' : ''} |`);
  lines.push(`| Started | ${log.started_at} |`);
  if (log.duration_ms !== undefined) lines.push(`| Duration | ${formatMs(log.duration_ms)} |`);
  lines.push(`| Tokens | ${formatTokens(log.total_tokens.total)} (${formatTokens(log.total_tokens.input)} in, ${formatTokens(log.total_tokens.output)} out) |`);
  const models = [log.models.main && `main ${log.models.main}`, log.models.tool && `tool ${log.models.tool}`].filter(Boolean).join(', ');
  if (models) lines.push(`| Models | ${escapeCell(models)} |`);
  if (log.input_budget) {
    const sent = log.final?.sent ? `${log.final.tokens.input.toLocaleString('en-US')} of ` : '';
    lines.push(
      `| Context | final prompt ${sent}${log.input_budget.tokens.toLocaleString('en-US')} tokens budgeted${log.input_budget.server_context ? ` (server window ${log.input_budget.server_context.toLocaleString('en-US')})` : ''} |`,
    );
  }
  lines.push('');
  if (log.error) lines.push(`> **Error:** ${escapeInline(log.error)}`, '');
  if (log.warnings.length) lines.push('**Warnings**', '', ...log.warnings.map((w) => `- ${escapeInline(w)}`), '');

  lines.push('## Inputs', '');
  const inputs = Object.entries(log.inputs);
  if (inputs.length === 0) lines.push('_None._', '');
  for (const [name, value] of inputs) lines.push(`- **${escapeInline(name)}**: ${inlineValue(value)}`);
  if (inputs.length) lines.push('');

  lines.push('## Steps', '');
  lines.push('| Step | Tool | Status | Time | Tokens |', '|---|---|---|---|---|');
  for (const step of log.steps) {
    lines.push(
      `| ${escapeCell(step.title || step.id)} | ${code(step.tool, true)} | ${STEP_STATUS[step.status] ?? step.status}${step.attempts > 1 ? ` (${step.attempts} attempts)` : ''} | ${step.duration_ms !== undefined ? formatMs(step.duration_ms) : ''} | ${step.tokens.total ? formatTokens(step.tokens.total) : ''} |`,
    );
  }
  lines.push('');
  for (const step of log.steps) lines.push(...stepSection(step));

  if (log.final) {
    lines.push('## Answer', '');
    lines.push(
      `Model ${code(log.final.model)}${log.final.duration_ms !== undefined ? ` · ${formatMs(log.final.duration_ms)}` : ''} · ${formatTokens(log.final.tokens.total)}${log.final.sent ? '' : ' · not sent'}`,
      '',
    );
    lines.push(fenced(log.final.output || '(empty)'), '');
  }
  return `${lines.join('\n')}\n`;
}

function stepSection(step: StepLog): string[] {
  const lines = [`### ${escapeInline(step.title || step.id)}`, ''];
  lines.push(
    `${code(step.id)} · ${code(step.tool)} · ${STEP_STATUS[step.status] ?? step.status}${step.recovered_by ? ' (recovered by its fallback)' : ''}`,
    '',
  );
  if (step.error) lines.push(`> **Error:** ${escapeInline(step.error)}`, '');
  if (step.skipped_reason) lines.push(`Skipped: ${escapeInline(step.skipped_reason)}`, '');
  for (const warning of step.warnings ?? []) lines.push(`- ⚠ ${escapeInline(warning)}`);
  if (step.warnings?.length) lines.push('');
  if (step.item_results?.length) lines.push(`Items: ${itemCounts(step.item_results)}`, '');
  for (const failure of step.item_errors ?? []) lines.push(`- item ${failure.item}: ${escapeInline(failure.error)}`);
  if (step.item_errors?.length) lines.push('');
  if (step.input !== undefined) lines.push('**Input**', '', fenced(previewText(step.input)), '');
  if (step.output_preview) lines.push('**Output**', '', fenced(cut(step.output_preview)), '');
  step.fallback?.forEach((fallback, i, all) => lines.push(...fallbackSection(fallback, i, all.length)));
  return lines;
}

/** A fallback step as the JSON has it: its own input (the step's above stays the original), status and output. */
function fallbackSection(fallback: NonNullable<StepLog['fallback']>[number], index: number, count: number): string[] {
  const lines = [`#### Fallback${count > 1 ? ` ${index + 1} of ${count}` : ''}: ${escapeInline(fallback.id)}`, ''];
  lines.push(`${code(fallback.id)} · ${code(fallback.tool)} · ${STEP_STATUS[fallback.status] ?? fallback.status}`, '');
  if (fallback.error) lines.push(`> **Error:** ${escapeInline(fallback.error)}`, '');
  if (fallback.input !== undefined) lines.push('**Input**', '', fenced(previewText(fallback.input)), '');
  if (fallback.output_preview) lines.push('**Output**', '', fenced(cut(fallback.output_preview)), '');
  return lines;
}

/** `8: 3 done, 1 failed, 4 not started`. */
function itemCounts(results: NonNullable<StepLog['item_results']>): string {
  const words: Record<string, string> = { success: 'done', failed: 'failed', cancelled: 'cancelled', not_started: 'not started' };
  const counts = new Map<string, number>();
  for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  return `${results.length}: ${[...counts].map(([status, n]) => `${n} ${words[status] ?? status}`).join(', ')}`;
}

function previewText(value: unknown): string {
  return cut(typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value)));
}

function cut(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n… (cut: see the raw JSON)` : text;
}

/** A fence longer than any backtick run inside, so model output cannot close it early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

function inlineValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${(text ?? '').replace(/`/g, "'").replace(/\s+/g, ' ').slice(0, 300)}\``;
}

/** Workspace text shown as text: no HTML, links or emphasis of its own (the preview renders Markdown). */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&').replace(/\s+/g, ' ');
}

/**
 * A value from the prompt file or the run (a prompt id, a model name) as a code span it cannot leave: no
 * backtick closes it and no line break ends it, so `![x](https://…)` stays text and never becomes an image
 * the Markdown preview would fetch (security.md #5). In a table a `|` would end the cell: GFM's `\|` keeps it.
 */
function code(text: string, inTable = false): string {
  const safe = text.replace(/`/g, "'").replace(/\s+/g, ' ');
  return `\`${inTable ? safe.replace(/\|/g, '\\|') : safe}\``;
}

function escapeCell(text: string): string {
  return escapeInline(text);
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function formatTokens(count: number): string {
  return `${count.toLocaleString('en-US')} tokens`;
}
