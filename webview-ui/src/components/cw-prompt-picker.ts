import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { PromptSummary } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** Every word of the query must appear in the prompt's id, title or description. */
export function filterPrompts(prompts: PromptSummary[], query: string): PromptSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return prompts.filter((p) => {
    const haystack = `${p.id} ${p.title} ${p.description}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

/** The searchable list `/agent` opens. Invalid prompt files are listed with their error and cannot be picked. */
export class CwPromptPicker extends CwElement {
  static override properties = { prompts: { attribute: false }, query: { attribute: false }, restricted: { attribute: false }, active: { state: true } };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; padding: 8px; }
      header { display: flex; align-items: center; gap: 6px; margin-bottom: 6px; font-weight: 600; }
      header .close { margin-left: auto; }
      ul { list-style: none; margin: 6px 0 0; padding: 0; }
      li { padding: 3px 8px; border-radius: 2px; cursor: pointer; border: 1px solid transparent; min-width: 0; }
      li[aria-selected='true'] { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); border-color: var(--vscode-contrastActiveBorder, transparent); }
      li[aria-selected='true'] .muted, li[aria-selected='true'] .error-text { color: inherit; }
      li:hover { background: var(--vscode-list-hoverBackground); }
      li[aria-disabled='true'] { cursor: pointer; }
      /* Two lines per prompt at any width: title and badge, then id and description (or the error), each cut with an ellipsis. */
      .line, .second { display: flex; gap: 6px; align-items: baseline; min-width: 0; white-space: nowrap; }
      .line > .codicon, .badge { flex: none; }
      .title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; min-width: 4em; flex: 0 1 auto; }
      .where { flex: 0 1 auto; min-width: 0; max-width: 55%; overflow: hidden; text-overflow: ellipsis; }
      .source, .where { margin-left: auto; }
      .second { font-size: 0.92em; padding-left: 22px; }
      .second > span { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
      .id { flex: none; max-width: 50%; font-family: var(--vscode-editor-font-family); }
      .desc { flex: 1 1 0; }
      .prompt-error { flex: 1 1 0; }
      .where { font-size: 0.92em; text-decoration: underline; color: var(--vscode-textLink-foreground); }
    `,
  ];

  declare prompts: PromptSummary[];
  /** Restricted Mode: the host offers no prompts, and the empty list must say why. */
  declare restricted: boolean;
  declare query: string;
  declare active: number;
  actions!: Actions;

  constructor() {
    super();
    this.prompts = [];
    this.restricted = false;
    this.query = '';
    this.active = 0;
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector('input')?.focus();
  }

  override render() {
    const matches = filterPrompts(this.prompts, this.query);
    const active = Math.min(this.active, Math.max(matches.length - 1, 0));
    return html`
      <header>${icon('run-all')} Run an action prompt
        <button class="icon close" title="Close" aria-label="Close" @click=${() => this.actions.agent.cancel()}>${icon('close')}</button>
      </header>
      <input type="search" placeholder="Search prompts" aria-label="Search prompts" role="combobox" aria-controls="prompt-list" aria-expanded="true"
        .value=${live(this.query)} @input=${this.onInput} @keydown=${(e: KeyboardEvent) => this.onKeyDown(e, matches, active)} />
      ${
        matches.length === 0
          ? html`<p class="muted empty">${this.emptyMessage()}</p>`
          : html`<ul id="prompt-list" role="listbox" aria-label="Action prompts">${matches.map((p, i) => this.renderPrompt(p, i === active))}</ul>`
      }
    `;
  }

  private emptyMessage(): string {
    if (this.prompts.length) return 'No prompt matches.';
    if (this.restricted) return 'This workspace is in Restricted Mode: trust it to run action prompts (they read workspace files).';
    return 'No action prompts found. Add YAML files under .codewiki/prompts/.';
  }

  private renderPrompt(p: PromptSummary, selected: boolean) {
    const at = p.errorAt;
    return html`<li role="option" data-prompt=${p.id} aria-selected=${selected} aria-disabled=${Boolean(p.error)} title=${p.error ?? p.description}
        @click=${() => this.pick(p)}>
      <div class="line">${icon(p.error ? 'warning' : 'play')}<span class="title">${p.title}</span>
        ${at ? html`<span class="where" title="Open ${at.path} at line ${at.line}">line ${at.line}</span>` : html`<span class="badge source">${p.source}</span>`}</div>
      <div class="second">
        ${
          p.error
            ? html`<span class="error-text prompt-error">${at?.message ?? p.error}</span>`
            : html`<span class="muted id">${p.id}</span>${p.description ? html`<span class="muted desc">${p.description}</span>` : nothing}`
        }
      </div>
    </li>`;
  }

  private readonly onInput = (event: Event) => {
    this.active = 0;
    this.actions.agent.setPickerQuery((event.target as HTMLInputElement).value);
  };

  private onKeyDown(event: KeyboardEvent, matches: PromptSummary[], active: number): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (matches.length) this.active = (active + step + matches.length) % matches.length;
    } else if (event.key === 'Enter') {
      if (matches[active]) this.pick(matches[active]);
    } else if (event.key === 'Escape') {
      this.actions.agent.cancel();
    } else return;
    event.preventDefault();
  }

  /** A valid prompt opens its form; a broken one opens its file at the error, where the editor shows every problem. */
  private pick(prompt: PromptSummary): void {
    if (!prompt.error) this.actions.agent.pick(prompt.id);
    else if (prompt.errorAt) this.actions.agentMode.openFile(prompt.errorAt.path, prompt.errorAt.line);
  }
}

customElements.define('cw-prompt-picker', CwPromptPicker);
