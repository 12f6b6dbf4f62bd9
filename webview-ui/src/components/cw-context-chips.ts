import { css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Actions } from '../actions';
import { chipKey, chipLabel, type ComposerChip } from '../agentModeState';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** The files and selections attached to the next message, each removable. */
export class CwContextChips extends CwElement {
  static override properties = { chips: { attribute: false } };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      ul { list-style: none; margin: 0; padding: 4px 4px 0; display: flex; flex-wrap: wrap; gap: 4px; }
      li { display: inline-flex; align-items: center; gap: 2px; max-width: 100%; min-width: 0; padding: 0 0 0 6px; border-radius: 3px; font-size: 0.92em;
        background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
      .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      button.icon { color: inherit; padding: 0 2px; }
    `,
  ];

  declare chips: ComposerChip[];
  actions!: Actions;

  constructor() {
    super();
    this.chips = [];
  }

  override render() {
    if (this.chips.length === 0) return nothing;
    return html`<ul aria-label="Attached to the next message">
      ${repeat(this.chips, chipKey, (chip) => {
        const key = chipKey(chip);
        const label = chipLabel(chip);
        const attachment = chip.kind === 'attachment' ? chip.attachment : undefined;
        const title = !attachment
          ? 'The selection in the editor, read when the message is sent'
          : attachment.kind === 'codebase'
            ? "The code index's best matches for the question go with it"
            : attachment.path;
        const glyph = attachment?.kind === 'file' ? 'file' : attachment?.kind === 'codebase' ? 'search' : 'selection';
        return html`<li class="chip" data-chip=${key} title=${title}>
          ${icon(glyph)}<span class="label">${label}</span>
          <button class="icon remove" aria-label="Remove ${label}" title="Remove" @click=${() => this.actions.agentMode.removeChip(key)}>${icon('close')}</button>
        </li>`;
      })}
    </ul>`;
  }
}

customElements.define('cw-context-chips', CwContextChips);
