import { css, html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Actions } from '../actions';
import { renderMarkdown } from '../markdown';
import type { Notice } from '../state';
import { baseStyles, markdownStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** Local messages that are not part of the conversation: `/help`, host errors, hints. Each can be dismissed. */
export class CwNotices extends CwElement {
  static override properties = { notices: { attribute: false } };
  static override styles = [
    baseStyles,
    markdownStyles,
    css`
      :host { display: block; }
      .notice { display: flex; gap: 6px; align-items: flex-start; margin: 4px 8px; padding: 6px 8px; border-radius: 3px;
        border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent)); background: var(--vscode-editorWidget-background); }
      .notice.error { border-color: var(--vscode-inputValidation-errorBorder); background: var(--vscode-inputValidation-errorBackground); }
      .markdown { flex: 1; }
    `,
  ];

  declare notices: Notice[];
  actions!: Actions;

  constructor() {
    super();
    this.notices = [];
  }

  override render() {
    if (this.notices.length === 0) return nothing;
    return this.notices.map(
      (n) => html`<div class="notice ${n.kind}" data-kind=${n.kind} role=${n.kind === 'error' ? 'alert' : 'status'}>
        ${icon(n.kind === 'error' ? 'error' : 'info')}
        <div class="markdown">${unsafeHTML(renderMarkdown(n.text))}</div>
        <button class="icon dismiss" title="Dismiss" aria-label="Dismiss" @click=${() => this.actions.dismissNotice(n.id)}>${icon('close')}</button>
      </div>`,
    );
  }
}

customElements.define('cw-notices', CwNotices);
