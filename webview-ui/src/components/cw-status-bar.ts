import { css, html, nothing } from 'lit';
import type { HostStatus } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** The line under the composer: which model answers (and which runs tool steps), and Restricted Mode. */
export class CwStatusBar extends CwElement {
  static override properties = { status: { attribute: false } };
  static override styles = [
    baseStyles,
    css`
      :host { display: flex; gap: 8px; align-items: center; padding: 2px 8px 4px; font-size: 0.9em; color: var(--vscode-descriptionForeground); min-height: 1.6em; }
      button.link { background: transparent; color: inherit; border: none; padding: 1px 2px; }
      button.link:hover { color: var(--vscode-foreground); background: var(--vscode-toolbar-hoverBackground); }
      .restricted { margin-left: auto; color: var(--vscode-editorWarning-foreground); display: inline-flex; gap: 3px; align-items: center; }
    `,
  ];

  declare status: HostStatus | undefined;
  actions!: Actions;

  override render() {
    const s = this.status;
    if (!s) return nothing;
    return html`
      <button class="link model" title="Model (click to change)" @click=${() => this.actions.openSettings('model')}>${icon('sparkle')} ${s.modelLabel || s.model || 'no model set'}</button>
      ${
        s.toolModel && s.toolModel !== s.model
          ? html`<button class="link tool-model" title="Model for tool steps (click to change)" @click=${() => this.actions.openSettings('toolModel')}>tools: ${s.toolModel}</button>`
          : nothing
      }
      ${s.trusted ? nothing : html`<span class="restricted" title="Restricted Mode: workspace prompts and file tools are off">${icon('warning')} Restricted Mode</span>`}
    `;
  }
}

customElements.define('cw-status-bar', CwStatusBar);
