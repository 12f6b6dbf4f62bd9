import { css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { PromptStepRecord } from '../../../src/shared/protocol';
import { formatDuration, formatTokens } from '../format';
import type { IconName } from '../icons';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';
import { rowStyles } from './rowStyles';

const STATUS: Record<PromptStepRecord['status'], { icon: IconName; label: string; spin?: boolean }> = {
  pending: { icon: 'circle-outline', label: 'Pending' },
  running: { icon: 'loading', label: 'Running', spin: true },
  success: { icon: 'pass', label: 'Done' },
  failed: { icon: 'error', label: 'Failed' },
  skipped: { icon: 'debug-step-over', label: 'Skipped' },
  cancelled: { icon: 'circle-slash', label: 'Cancelled' },
};

/**
 * The live steps of an `/agent` run; a step expands to show its resolved input and an output
 * preview. Rows share the agent turn's layout: title first, status, duration and tokens always shown.
 */
export class CwStepList extends CwElement {
  static override properties = { steps: { attribute: false }, expanded: { state: true } };
  static override styles = [
    baseStyles,
    rowStyles,
    css`
      :host { display: block; margin: 4px 0; min-width: 0; }
      ol { list-style: none; margin: 0; padding: 0; border-left: 1px solid var(--vscode-tree-indentGuidesStroke, var(--vscode-widget-border)); min-width: 0; }
      .step-warnings { list-style: none; margin: 0; padding: 0 4px 2px 24px; }
      .step-warnings li { display: flex; gap: 4px; align-items: flex-start; overflow-wrap: anywhere; min-width: 0; font-size: 0.92em; }
      .step-warnings .codicon { color: var(--vscode-editorWarning-foreground); }
      .details { padding: 2px 8px 6px 28px; }
      .details h4 { margin: 6px 0 2px; font-size: 0.9em; font-weight: 600; color: var(--vscode-descriptionForeground); }
      pre { margin: 0; max-height: 16em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background); padding: 4px 6px; }
    `,
  ];

  declare steps: PromptStepRecord[];
  declare expanded: ReadonlySet<string>;

  constructor() {
    super();
    this.steps = [];
    this.expanded = new Set();
  }

  override render() {
    if (this.steps.length === 0) return nothing;
    return html`<ol aria-label="Steps">${repeat(
      this.steps,
      (s) => s.id,
      (s) => this.renderStep(s),
    )}</ol>`;
  }

  private renderStep(step: PromptStepRecord) {
    const status = STATUS[step.status] ?? STATUS.pending;
    const open = this.expanded.has(step.id);
    const title = step.title || step.id;
    return html`<li class="step" data-step=${step.id} data-status=${step.status}>
      <button class="row" aria-expanded=${open} title=${`${title} (${step.tool}): ${status.label}`} @click=${() => this.toggle(step.id)}>
        ${icon(open ? 'chevron-down' : 'chevron-right')}
        <span class="state" role="img" aria-label=${status.label}>${icon(status.icon, status.spin ? 'spin' : '')}</span>
        <span class="title">${title}</span>
        <span class="middle tool">${step.tool !== title ? step.tool : ''}</span>
        <span class="meta">
          ${step.durationMs !== undefined ? html`<span class="duration">${formatDuration(step.durationMs)}</span>` : nothing}
          ${step.tokens ? html`<span class="tokens">${formatTokens(step.tokens)}</span>` : nothing}
          ${step.attempts && step.attempts > 1 ? html`<span class="retries">${step.attempts - 1} ${step.attempts === 2 ? 'retry' : 'retries'}</span>` : nothing}
        </span>
      </button>
      ${step.warnings?.length ? html`<ul class="step-warnings">${step.warnings.map((w) => html`<li class="warning">${icon('warning')}<span>${w}</span></li>`)}</ul>` : nothing}
      ${open ? this.renderDetails(step) : nothing}
    </li>`;
  }

  private renderDetails(step: PromptStepRecord) {
    return html`<div class="details">
      ${step.error ? html`<div class="error-text">${step.error}</div>` : nothing}
      <h4>Input</h4><pre class="input-preview">${step.inputPreview || '(none)'}</pre>
      <h4>Output</h4><pre class="output-preview">${step.outputPreview || '(none)'}</pre>
    </div>`;
  }

  private toggle(id: string): void {
    const next = new Set(this.expanded);
    if (!next.delete(id)) next.add(id);
    this.expanded = next;
  }
}

customElements.define('cw-step-list', CwStepList);
