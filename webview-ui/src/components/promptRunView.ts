import { css, html, nothing, type TemplateResult } from 'lit';
import type { PromptRunMessage } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { formatDuration, formatTokens } from '../format';
import { icon } from './cwElement';
import { renderThinking } from './thinkingBlock';

type MarkdownRenderer = (text: string, streaming: boolean) => unknown;

export const runStyles = css`
  .run-request { margin-bottom: 8px; }
  .inputs { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0 0; }
  .inputs dt { color: var(--vscode-descriptionForeground); }
  .inputs dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 6em; overflow: hidden; }
  .run-answer { margin-top: 8px; }
  .run-warnings { margin: 4px 0; display: flex; flex-direction: column; gap: 2px; }
  .run-warnings .warning { display: flex; gap: 6px; align-items: flex-start; overflow-wrap: anywhere; min-width: 0; }
  .run-warnings .codicon { color: var(--vscode-editorWarning-foreground); }
  .run-tokens { font-weight: normal; margin-left: auto; font-size: 0.9em; white-space: nowrap; }
  .run-summary { margin-top: 6px; font-size: 0.9em; font-variant-numeric: tabular-nums; display: flex; flex-wrap: wrap; gap: 0 10px; }
`;

/** An `/agent` run: the user's half (prompt and inputs), the live steps, then the streamed answer and its actions. */
export function renderPromptRun(run: PromptRunMessage, actions: Actions, markdown: MarkdownRenderer): TemplateResult {
  const running = run.status === 'running';
  const inputs = Object.entries(run.inputs);
  return html`
    <div class="msg user run-request" data-kind="prompt-request">
      <div class="head">${icon('run-all')}<span class="run-title">${run.promptTitle}</span><span class="muted">/agent ${run.promptId}</span></div>
      ${
        inputs.length
          ? html`<dl class="inputs">${inputs.map(([name, value]) => html`<dt>${name}</dt><dd>${formatInput(value)}</dd>`)}</dl>`
          : html`<div class="muted">No inputs</div>`
      }
    </div>
    <div class="msg assistant" data-kind="prompt-run" data-status=${run.status}>
      <div class="head">${icon(running ? 'loading' : 'sparkle', running ? 'spin' : '')}<span>CodeWiki</span>${statusBadge(run)}
        ${run.tokens?.total ? html`<span class="muted run-tokens">${formatTokens(run.tokens.total)}</span>` : nothing}</div>
      <cw-step-list .steps=${run.steps}></cw-step-list>
      ${renderRunWarnings(run)}
      ${renderThinking(run.reasoning)}
      <div class="markdown run-answer">${markdown(run.answer, running)}</div>
      ${
        run.status === 'error'
          ? html`<div class="error-box" role="alert"><span class="error-message">${icon('error')} ${run.error ?? 'The run failed.'}</span>
          <button class="secondary rerun" @click=${() => actions.agent.rerun(run)}>${icon('refresh')} Run again</button></div>`
          : nothing
      }
      ${running ? nothing : renderRunSummary(run)}
      ${running ? nothing : renderRunActions(run, actions)}
    </div>
  `;
}

/** The run's own warnings; a step's are shown under its row, so they are not repeated here. */
function renderRunWarnings(run: PromptRunMessage) {
  const shown = new Set(run.steps.flatMap((step) => step.warnings ?? []));
  const warnings = (run.warnings ?? []).filter((w) => !shown.has(w));
  if (warnings.length === 0) return nothing;
  return html`<div class="run-warnings">${warnings.map((w) => html`<div class="warning">${icon('warning')}<span>${w}</span></div>`)}</div>`;
}

function renderRunActions(run: PromptRunMessage, actions: Actions) {
  const hasAnswer = run.answer.length > 0;
  return html`<div class="toolbar run-actions">
    ${
      hasAnswer
        ? html`<button class="secondary" data-action="copy" @click=${() => actions.code('copy', run.answer)}>${icon('copy')} Copy</button>
          <button class="secondary" data-action="insert" @click=${() => actions.code('insert', run.answer)}>${icon('insert')} Insert</button>
          <button class="secondary" data-action="save" @click=${() => actions.saveAnswer(run.answer)}>${icon('save')} Save to file…</button>`
        : nothing
    }
    ${run.status === 'error' ? nothing : html`<button class="secondary rerun" data-action="rerun" title="Run ${run.promptId} again with the same inputs" @click=${() => actions.agent.rerun(run)}>${icon('refresh')} Run again</button>`}
    <button class="secondary" data-action="edit-inputs" title="Open the form with these inputs" @click=${() => actions.agent.editRun(run)}>${icon('edit')} Edit inputs…</button>
    <button class="secondary" data-action="runlog" @click=${() => actions.openRunLog(run.id)}>${icon('output')} Open run log</button>
  </div>`;
}

/** As the CLI ends a run: the answer's own tokens, then the run's total and its time. */
function renderRunSummary(run: PromptRunMessage) {
  const parts: string[] = [];
  if (run.answerTokens) parts.push(`Answer: ${formatTokens(run.answerTokens)}`);
  if (run.tokens?.total || run.durationMs !== undefined) {
    const total = run.tokens?.total ? formatTokens(run.tokens.total) : '';
    const time = run.durationMs !== undefined ? `${total ? ' in ' : ''}${formatDuration(run.durationMs)}` : '';
    parts.push(`Run: ${total}${time}`);
  }
  if (run.context) {
    const { promptTokens, budgetTokens, serverContext } = run.context;
    parts.push(
      `Context: ${promptTokens.toLocaleString('en-US')} of ${budgetTokens.toLocaleString('en-US')} tokens budgeted${serverContext ? ` (server window ${serverContext.toLocaleString('en-US')})` : ''}`,
    );
  }
  if (parts.length === 0) return nothing;
  return html`<div class="muted run-summary">${parts.map((p) => html`<span>${p}</span>`)}</div>`;
}

function statusBadge(run: PromptRunMessage) {
  if (run.status === 'running') return html`<span class="muted">Running…</span>`;
  if (run.status === 'stopped') return html`<span class="badge stopped">Stopped</span>`;
  if (run.status === 'error') return html`<span class="badge">Failed</span>`;
  return nothing;
}

function formatInput(value: unknown): string {
  if (typeof value === 'string') return value.length > 500 ? `${value.slice(0, 500)}…` : value;
  return JSON.stringify(value) ?? String(value);
}
