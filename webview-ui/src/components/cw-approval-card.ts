import { css, html, nothing } from 'lit';
import type { AgentToolPreview, ApprovalAnswer } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import type { ApprovalEntry } from '../agentModeState';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';
import { diffStyles, renderDiff } from './diffView';
import { kindBadgeStyles } from './kindBadge';

const OUTCOMES: Record<ApprovalAnswer | 'cancelled', string> = {
  'allow-once': 'Allowed once',
  'allow-conversation': 'Allowed in this conversation',
  deny: 'Denied',
  cancelled: 'Cancelled: the turn was stopped',
};

/**
 * A write or execute call waiting for the user: the exact change, then Allow once, Allow in this
 * conversation (when it would be remembered) or Deny with an optional reason. Everything the
 * model or a workspace file wrote (why, diff, command, arguments) is shown as text. A sub-agent's
 * call says which sub-agent asks (`via`).
 */
export class CwApprovalCard extends CwElement {
  static override properties = { entry: { attribute: false }, via: { attribute: false } };
  static override styles = [
    baseStyles,
    diffStyles,
    kindBadgeStyles,
    css`
      :host { display: block; margin: 6px 0; }
      .card { border: 1px solid var(--vscode-editorWarning-foreground, var(--vscode-focusBorder)); border-radius: 3px; padding: 6px 8px; background: var(--vscode-editorWidget-background); min-width: 0; }
      .card.settled { border-color: var(--vscode-widget-border, transparent); padding: 3px 8px; }
      header { display: flex; align-items: center; gap: 6px; min-width: 0; }
      header .title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      header .kind { flex: none; }
      .via { margin: 2px 0 0; font-size: 0.9em; overflow-wrap: anywhere; }
      .why { margin: 4px 0; overflow-wrap: anywhere; }
      .target { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; margin: 4px 0; font-family: var(--vscode-editor-font-family); overflow-wrap: anywhere; }
      .added { color: var(--vscode-gitDecoration-addedResourceForeground); }
      .removed { color: var(--vscode-gitDecoration-deletedResourceForeground); }
      pre.text { margin: 4px 0; max-height: 12em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--vscode-editor-font-family);
        background: var(--vscode-textCodeBlock-background); padding: 4px 6px; }
      .buttons { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; }
      .reason { margin-top: 4px; }
      .outcome { margin-left: auto; flex: none; }
    `,
  ];

  declare entry: ApprovalEntry;
  /** The display name of the sub-agent whose call this is (`prompt.parentCallId` says whether it is one). */
  declare via: string | undefined;
  actions!: Actions;

  override render() {
    const { prompt, answered, settled } = this.entry;
    const titleId = `approval-${prompt.approvalId}`;
    const header = html`<header>
      ${icon('shield')}<span class="title" id=${titleId}>${prompt.displayName}</span><span class="badge kind" data-kind=${prompt.kind}>${prompt.kind}</span>
      ${settled ? html`<span class="outcome muted">${OUTCOMES[settled]}</span>` : nothing}
    </header>${prompt.parentCallId !== undefined ? html`<div class="via muted">${icon('tools')} ${this.via ? `Asked by the sub-agent ${this.via}` : 'Asked by a sub-agent'}</div>` : nothing}`;
    const parent = prompt.parentCallId ?? nothing;
    if (settled) {
      return html`<section class="card settled" role="group" aria-labelledby=${titleId} data-approval=${prompt.approvalId} data-parent-call=${parent} data-state="settled" data-outcome=${settled}>${header}</section>`;
    }
    return html`<section class="card" role="group" aria-labelledby=${titleId} aria-describedby="${titleId}-why" data-approval=${prompt.approvalId} data-parent-call=${parent} data-state=${answered ? 'answered' : 'pending'}>
      ${header}
      <p class="why" id="${titleId}-why">${prompt.why}</p>
      ${this.renderPreview(prompt.preview)}
      <div class="buttons">
        ${
          prompt.preview.type === 'diff'
            ? html`<button class="secondary open-diff" @click=${() => this.actions.agentMode.openDiff(prompt.approvalId)}>${icon('diff')} Open diff</button>`
            : nothing
        }
        <button class="allow-once" ?disabled=${Boolean(answered)} @click=${() => this.answer('allow-once')}>Allow once</button>
        ${
          prompt.canAllowForConversation
            ? html`<button class="secondary allow-conversation" ?disabled=${Boolean(answered)} @click=${() => this.answer('allow-conversation')}>Allow in this conversation</button>`
            : nothing
        }
        <button class="secondary deny" ?disabled=${Boolean(answered)} @click=${() => this.answer('deny')}>Deny</button>
      </div>
      <input class="reason" type="text" maxlength="2000" placeholder="Reason if you deny (optional, told to the model)" aria-label="Reason for denying (optional)"
        ?disabled=${Boolean(answered)} @keydown=${this.onReasonKey} />
      ${answered ? html`<div class="muted sent" role="status">${OUTCOMES[answered]}: waiting for the agent…</div>` : nothing}
    </section>`;
  }

  private renderPreview(preview: AgentToolPreview) {
    switch (preview.type) {
      case 'diff':
        return html`<div class="target"><span class="path">${preview.action} ${preview.path}</span><span class="added">+${preview.added}</span><span class="removed">−${preview.removed}</span></div>
          ${renderDiff(preview.diff)}`;
      case 'command':
        return html`<pre class="text command">${preview.command}</pre><div class="muted cwd">in ${preview.cwd || '.'}</div>`;
      case 'arguments':
        return html`<pre class="text arguments">${preview.text}</pre>`;
    }
  }

  /** Enter in the reason field denies with it: the reason only makes sense with a denial. */
  private readonly onReasonKey = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    this.answer('deny');
  };

  private answer(decision: ApprovalAnswer): void {
    const reason = this.renderRoot.querySelector<HTMLInputElement>('input.reason')?.value;
    this.actions.agentMode.approve(this.entry.prompt.approvalId, decision, reason);
  }
}

customElements.define('cw-approval-card', CwApprovalCard);
