import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { PromptInputField, PromptSummary } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import type { FormState } from '../state';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** The form an action prompt's inputs describe. Values and errors live in the store; this only draws them. */
export class CwPromptForm extends CwElement {
  static override properties = { prompt: { attribute: false }, form: { attribute: false }, activeSuggestion: { state: true } };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; padding: 8px; }
      header { display: flex; align-items: center; gap: 6px; font-weight: 600; min-width: 0; }
      header .title, header .id { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      header .title { flex: 0 1 auto; }
      header .id { flex: 1 1 0; font-weight: normal; }
      header .close { margin-left: auto; flex: none; }
      .description { margin: 6px 0; overflow-wrap: anywhere; }
      input, textarea, select { min-width: 0; }
      .row > input { flex: 1 1 auto; }
      .row > button { flex: none; }
      .field { margin: 10px 0; position: relative; }
      label { display: block; margin-bottom: 3px; }
      .required { color: var(--vscode-errorForeground); }
      .check label { display: inline-flex; gap: 6px; align-items: center; }
      .row { display: flex; gap: 4px; }
      [aria-invalid='true'] { border-color: var(--vscode-inputValidation-errorBorder); }
      .field-error { margin-top: 2px; font-size: 0.92em; }
      .suggestions { position: absolute; left: 0; right: 0; z-index: 5; list-style: none; margin: 1px 0 0; padding: 2px 0; max-height: 12em; overflow: auto;
        background: var(--vscode-editorSuggestWidget-background); color: var(--vscode-editorSuggestWidget-foreground); border: 1px solid var(--vscode-editorSuggestWidget-border); }
      .suggestions li { padding: 2px 8px; cursor: pointer; font-family: var(--vscode-editor-font-family); }
      .suggestions li[aria-selected='true'] { background: var(--vscode-editorSuggestWidget-selectedBackground); color: var(--vscode-editorSuggestWidget-selectedForeground); }
      .buttons { display: flex; gap: 6px; margin-top: 12px; }
    `,
  ];

  declare prompt: PromptSummary;
  declare form: FormState;
  declare activeSuggestion: number;
  actions!: Actions;

  constructor() {
    super();
    this.activeSuggestion = -1;
  }

  override firstUpdated(): void {
    // The app scrolls the form into view (Run included when it fits); focusing must not scroll it away again.
    (this.renderRoot.querySelector('.field input, .field textarea, .field select') as HTMLElement | null)?.focus({ preventScroll: true });
  }

  override render() {
    const errorCount = Object.keys(this.form.errors).length;
    return html`<form novalidate @submit=${this.onSubmit} @keydown=${this.onKeyDown} @focusout=${this.onFocusOut} aria-label=${this.prompt.title}>
      <header>${icon('run-all')}<span class="title">${this.prompt.title}</span><span class="muted id">${this.prompt.id}</span>
        <button type="button" class="icon close" title="Cancel" aria-label="Close" @click=${() => this.actions.agent.cancel()}>${icon('close')}</button>
      </header>
      ${this.prompt.description ? html`<p class="muted description">${this.prompt.description}</p>` : nothing}
      ${this.prompt.inputs.length ? this.prompt.inputs.map((f) => this.renderField(f)) : html`<p class="muted">This prompt has no inputs.</p>`}
      ${errorCount ? html`<div class="error-text summary" role="alert">Fix ${errorCount === 1 ? 'the field' : `${errorCount} fields`} above to run.</div>` : nothing}
      <div class="buttons">
        <button type="submit" class="run">${icon('play')} Run</button>
        <button type="button" class="secondary cancel" @click=${() => this.actions.agent.cancel()}>Cancel</button>
      </div>
    </form>`;
  }

  private renderField(field: PromptInputField) {
    const error = this.form.errors[field.name];
    const id = `field-${field.name}`;
    const label = html`${field.label}${field.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}`;
    return html`<div class="field ${field.type === 'boolean' ? 'check' : ''}" data-field=${field.name} data-type=${field.type}>
      ${field.type === 'boolean' ? html`<label>${this.renderControl(field, id, Boolean(error))} ${label}</label>` : html`<label for=${id}>${label}</label>${this.renderControl(field, id, Boolean(error))}`}
      ${error ? html`<div class="field-error error-text" id="${id}-error">${error}</div>` : nothing}
    </div>`;
  }

  private renderControl(field: PromptInputField, id: string, invalid: boolean) {
    const value = this.form.values[field.name];
    const text = typeof value === 'string' ? value : '';
    const describedBy = invalid ? `${id}-error` : '';
    const set = (v: string | boolean) => this.actions.agent.setValue(field.name, v);
    const onText = (e: Event) => set((e.target as HTMLInputElement).value);
    switch (field.type) {
      case 'multiline':
        return html`<textarea id=${id} rows="4" placeholder=${field.placeholder ?? ''} aria-invalid=${invalid} aria-describedby=${describedBy} .value=${live(text)} @input=${onText}></textarea>`;
      case 'number':
        return html`<input id=${id} type="number" step="any" placeholder=${field.placeholder ?? ''} aria-invalid=${invalid} aria-describedby=${describedBy} .value=${live(text)} @input=${onText} />`;
      case 'boolean':
        return html`<input id=${id} type="checkbox" .checked=${live(value === true)} @change=${(e: Event) => set((e.target as HTMLInputElement).checked)} />`;
      case 'select':
        return html`<select id=${id} aria-invalid=${invalid} aria-describedby=${describedBy} @change=${onText}>
          ${text === '' || !field.required ? html`<option value="" ?selected=${text === ''}>${field.required ? 'Select…' : '(none)'}</option>` : nothing}
          ${(field.options ?? []).map((o) => html`<option value=${String(o)} ?selected=${String(o) === text}>${String(o)}</option>`)}
        </select>`;
      case 'path':
        return this.renderPath(field, id, text, invalid, describedBy);
      default:
        return html`<input id=${id} type="text" placeholder=${field.placeholder ?? ''} aria-invalid=${invalid} aria-describedby=${describedBy} .value=${live(text)} @input=${onText} />`;
    }
  }

  private renderPath(field: PromptInputField, id: string, text: string, invalid: boolean, describedBy: string) {
    const suggestions = this.form.suggestions?.field === field.name ? this.form.suggestions.items : [];
    const open = suggestions.length > 0;
    return html`<div class="row">
        <input id=${id} type="text" autocomplete="off" spellcheck="false" placeholder=${field.placeholder ?? 'File or folder, e.g. src'} role="combobox"
          aria-autocomplete="list" aria-expanded=${open} aria-controls="${id}-suggestions" aria-invalid=${invalid} aria-describedby=${describedBy}
          .value=${live(text)} @input=${(e: Event) => this.onPathInput(field.name, (e.target as HTMLInputElement).value)}
          @keydown=${(e: KeyboardEvent) => this.onPathKey(e, field.name, suggestions)} @blur=${() => this.actions.agent.closeSuggestions()} />
        <button type="button" class="secondary browse" title="Browse…" aria-label="Browse…" @click=${() => this.actions.agent.browse(field.name)}>${icon('folder-opened')}</button>
      </div>
      ${
        open
          ? html`<ul class="suggestions" id="${id}-suggestions" role="listbox">${suggestions.map(
              (item, i) => html`<li role="option" aria-selected=${i === this.activeSuggestion} @mousedown=${(e: Event) => e.preventDefault()}
                @click=${() => this.choose(field.name, item)}>${item}</li>`,
            )}</ul>`
          : nothing
      }`;
  }

  private onPathInput(field: string, value: string): void {
    this.activeSuggestion = -1;
    this.actions.agent.setValue(field, value);
    this.actions.agent.suggestPath(field, value);
  }

  private onPathKey(event: KeyboardEvent, field: string, suggestions: string[]): void {
    if (suggestions.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.activeSuggestion = (this.activeSuggestion + step + suggestions.length) % suggestions.length;
    } else if ((event.key === 'Enter' || event.key === 'Tab') && this.activeSuggestion >= 0) {
      this.choose(field, suggestions[this.activeSuggestion]);
    } else if (event.key === 'Escape') {
      this.actions.agent.closeSuggestions();
    } else return;
    event.preventDefault();
    event.stopPropagation(); // Esc closes the list, not the form
  }

  private choose(field: string, path: string): void {
    this.activeSuggestion = -1;
    this.actions.agent.chooseSuggestion(field, path);
  }

  private readonly onSubmit = (event: Event) => {
    event.preventDefault();
    this.actions.agent.run();
  };

  /** Leaving a field checks it, but only once the user changed it: the form never opens in red. */
  private readonly onFocusOut = (event: FocusEvent) => {
    const field = (event.target as HTMLElement).closest('.field')?.getAttribute('data-field');
    const next = event.relatedTarget as HTMLElement | null;
    // Moving within the same field (its Browse button) is not leaving it.
    if (field && next?.closest('.field')?.getAttribute('data-field') !== field) this.actions.agent.leaveField(field);
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') this.actions.agent.cancel();
  };
}

customElements.define('cw-prompt-form', CwPromptForm);
