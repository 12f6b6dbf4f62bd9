import { css, html, nothing, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import type { ChatMode, ToolsState } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { type ComposerChip, type FileCompletion, mentionableTools } from '../agentModeState';
import { type ComposerPopup, composerPopup, type PopupItem } from '../composerPopup';
import { replaceToken, tokenAt, tokenKey, typedChip } from '../composerTokens';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';
import { kindBadgeStyles } from './kindBadge';
import './cw-context-chips';

/**
 * The input at the bottom: Enter sends, Shift+Enter breaks the line. `/` at the start opens the
 * command popup, `@` the agent's tools, `#` attachments (`#file:` completes workspace paths). Below
 * it: the Chat/Agent switch and the tool picker.
 */
export class CwComposer extends CwElement {
  static override properties = {
    draft: { attribute: false },
    busy: { attribute: false },
    mode: { attribute: false },
    chips: { attribute: false },
    tools: { attribute: false },
    fileCompletion: { attribute: false },
    active: { state: true },
    dismissedFor: { state: true },
    dismissedToken: { state: true },
    caret: { state: true },
  };
  static override styles = [
    baseStyles,
    kindBadgeStyles,
    css`
      :host { display: block; position: relative; padding: 6px 8px; border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
      .box { display: flex; flex-direction: column; border: 1px solid var(--vscode-input-border, transparent); background: var(--vscode-input-background); border-radius: 2px; }
      .box:focus-within { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
      textarea { border: none; resize: none; min-height: 2.4em; max-height: 12em; field-sizing: content; background: transparent; }
      textarea:focus { outline: none; }
      .popup { position: absolute; left: 8px; right: 8px; bottom: calc(100% - 4px); margin: 0; padding: 4px 0; list-style: none; z-index: 10;
        background: var(--vscode-quickInput-background, var(--vscode-editorWidget-background)); color: var(--vscode-quickInput-foreground);
        border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); box-shadow: 0 2px 8px var(--vscode-widget-shadow); border-radius: 3px; }
      .popup li { display: flex; gap: 8px; padding: 3px 10px; cursor: pointer; }
      .popup li[aria-selected='true'] { background: var(--vscode-quickInputList-focusBackground, var(--vscode-list-activeSelectionBackground)); color: var(--vscode-quickInputList-focusForeground, var(--vscode-list-activeSelectionForeground)); outline: 1px solid var(--vscode-contrastActiveBorder, transparent); }
      .name { font-weight: 600; flex: none; }
      .popup li .muted { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      /* On the selection colour the description takes the row's own foreground: grey on blue is unreadable in light themes. */
      .popup li[aria-selected='true'] .muted { color: inherit; opacity: 0.85; }
      .popup li .kind { flex: none; margin-left: auto; }
      .popup .path { font-family: var(--vscode-editor-font-family); overflow-wrap: anywhere; }
      .popup.paths { max-height: 14em; overflow-y: auto; }
      .input-row { display: flex; align-items: flex-end; gap: 4px; }
      .bar { display: flex; align-items: center; gap: 4px; padding: 0 2px 2px; }
      .modes { display: inline-flex; border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent)); border-radius: 2px; overflow: hidden; }
      .modes button { background: transparent; color: var(--vscode-descriptionForeground); border: none; border-radius: 0; padding: 1px 8px; font-size: 0.9em; }
      .modes button[aria-pressed='true'] { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
      .tools-button { font-size: 0.9em; color: var(--vscode-descriptionForeground); }
      .tools-button .count { font-variant-numeric: tabular-nums; }
    `,
  ];

  declare draft: string;
  declare busy: boolean;
  declare mode: ChatMode;
  declare chips: ComposerChip[];
  declare tools: ToolsState | undefined;
  declare fileCompletion: FileCompletion | undefined;
  declare active: number;
  /** The text the `/` popup was closed for with Esc; typing anything else opens it again. */
  declare dismissedFor: string | undefined;
  /** The `@`/`#` word the popup was closed for with Esc; a new word (another `@`) opens it again. */
  declare dismissedToken: string | undefined;
  declare caret: number;
  actions!: Actions;
  /** Where the caret goes once the textarea shows the draft a pick wrote. */
  private pendingCaret?: { draft: string; caret: number };

  constructor() {
    super();
    this.draft = '';
    this.busy = false;
    this.mode = 'chat';
    this.chips = [];
    this.active = 0;
    this.caret = 0;
  }

  private get popup(): ComposerPopup | undefined {
    return composerPopup({
      draft: this.draft,
      caret: Math.min(this.caret, this.draft.length),
      mode: this.mode,
      tools: this.tools,
      fileCompletion: this.fileCompletion,
      dismissedFor: this.dismissedFor,
      dismissedToken: this.dismissedToken,
    });
  }

  override render() {
    const popup = this.popup;
    const active = popup ? Math.min(this.active, popup.items.length - 1) : 0;
    const agent = this.mode === 'agent';
    return html`
      ${popup ? this.renderPopup(popup, active) : nothing}
      <div class="box">
        <cw-context-chips .chips=${this.chips} .actions=${this.actions}></cw-context-chips>
        <div class="input-row">
          <textarea
            rows="1"
            placeholder=${agent ? 'Ask the agent (@ tools, # files, / commands)' : 'Ask CodeWiki, or type / for commands'}
            aria-label="Message"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded=${Boolean(popup)}
            aria-controls="composer-popup"
            aria-activedescendant=${popup ? itemId(popup, popup.items[active], active) : ''}
            .value=${live(this.draft)}
            @input=${this.onInput}
            @keydown=${this.onKeyDown}
            @keyup=${this.onCaretMove}
            @click=${this.onCaretMove}
          ></textarea>
          ${
            this.busy
              ? html`<button class="icon stop" title="Stop" aria-label="Stop" @click=${() => this.actions.stop()}>${icon('debug-stop')}</button>`
              : html`<button class="icon send" title="Send (Enter)" aria-label="Send" ?disabled=${!this.draft.trim()} @click=${this.submit}>${icon('send')}</button>`
          }
        </div>
        ${this.renderBar()}
      </div>
    `;
  }

  /** The Chat/Agent switch and the tool picker's button. */
  private renderBar() {
    const on = mentionableTools(this.tools).length;
    return html`<div class="bar">
      <div class="modes" role="group" aria-label="Mode">
        ${(['chat', 'agent'] as const).map(
          (mode) => html`<button class="mode" data-mode=${mode} aria-pressed=${this.mode === mode}
              title=${mode === 'agent' ? 'Agent: the model may search, read and (with your approval) change files and run commands' : 'Chat: a plain answer from the conversation'}
              @click=${() => this.actions.agentMode.setMode(mode)}>${mode === 'agent' ? 'Agent' : 'Chat'}</button>`,
        )}
      </div>
      <button class="icon tools-button" title="Tools the agent may use" aria-label="Tools (${on} on)" @click=${() => this.actions.agentMode.showTools()}>
        ${icon('tools')}${this.tools ? html`<span class="count">${on}</span>` : nothing}
      </button>
    </div>`;
  }

  private renderPopup(popup: ComposerPopup, active: number) {
    return html`<ul class="popup ${popup.kind === 'file' ? 'paths' : ''}" id="composer-popup" role="listbox" aria-label=${popup.label} data-popup=${popup.kind}>
      ${popup.items.map(
        (item, i) => html`<li id=${itemId(popup, item, i)} role="option" aria-selected=${i === active} data-item=${item.id}
            data-command=${ifDefined(popup.kind === 'command' ? item.id : undefined)}
            @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.pick(popup, item)}>
          <span class="name ${popup.kind === 'file' ? 'path' : ''}">${item.label}</span>${item.detail ? html`<span class="muted">${item.detail}</span>` : nothing}
          ${item.kind ? html`<span class="badge kind" data-kind=${item.kind}>${item.kind}</span>` : nothing}
        </li>`,
      )}
    </ul>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const pending = this.pendingCaret;
    const textarea = this.renderRoot.querySelector('textarea');
    if (!pending || !textarea || textarea.value !== pending.draft) return;
    this.pendingCaret = undefined;
    textarea.setSelectionRange(pending.caret, pending.caret);
    this.caret = pending.caret;
  }

  override focus(): void {
    this.renderRoot.querySelector('textarea')?.focus();
  }

  private readonly onInput = (event: Event) => {
    const textarea = event.target as HTMLTextAreaElement;
    this.active = 0;
    // Esc closed the popup for that text only: any other text (even clearing the input) rearms it.
    if (textarea.value !== this.dismissedFor) this.dismissedFor = undefined;
    const chip = typedChip(textarea.value, textarea.selectionStart);
    if (chip) {
      this.actions.agentMode.addChip(chip.chip);
      this.write(chip.text, chip.caret);
    } else {
      this.caret = textarea.selectionStart;
      this.actions.setDraft(textarea.value);
    }
    this.followToken(chip?.text ?? textarea.value);
  };

  /** Arrow keys and clicks move the caret to another word, which may have a popup of its own. */
  private readonly onCaretMove = (event: Event) => {
    const textarea = event.target as HTMLTextAreaElement;
    if (textarea.selectionStart === this.caret) return;
    this.caret = textarea.selectionStart;
    this.followToken(textarea.value);
  };

  /**
   * Asks for `#file:` completions while one is typed; a word closed with Esc stays closed only while
   * it lasts. `text` is the textarea's: the store's draft reaches this element a moment later.
   */
  private followToken(text: string): void {
    const token = tokenAt(text, this.caret);
    if (!token) this.dismissedToken = undefined;
    if (token?.kind === 'file' && tokenKey(token) !== this.dismissedToken) this.actions.agentMode.suggestFiles(token.query);
    else if (this.fileCompletion) this.actions.agentMode.closeFileCompletion();
  }

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return; // an IME is still composing: Enter confirms its text, not ours
    const popup = this.popup;
    if (popup) {
      const count = popup.items.length;
      const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (move) this.active = (Math.min(this.active, count - 1) + move + count) % count;
      else if (event.key === 'Enter' || event.key === 'Tab') this.pick(popup, popup.items[Math.min(this.active, count - 1)]);
      else if (event.key === 'Escape') this.dismiss(popup);
      else return;
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'ArrowUp' && !(event.target as HTMLTextAreaElement).value) {
      // As in a terminal or VS Code's chat: an empty input recalls the last message to edit and send again.
      const last = this.actions.lastMessage();
      if (!last) return;
      event.preventDefault();
      this.write(last, last.length);
    }
  };

  private dismiss(popup: ComposerPopup): void {
    if (popup.token) this.dismissedToken = tokenKey(popup.token);
    else this.dismissedFor = this.draft;
    this.actions.agentMode.closeFileCompletion();
  }

  private pick(popup: ComposerPopup, item: PopupItem): void {
    this.active = 0;
    const token = popup.token;
    if (popup.kind === 'command' || !token) {
      this.actions.runCommand(item.id);
      return;
    }
    if (popup.kind === 'mention') return this.replace(token, `@${item.id} `);
    if (popup.kind === 'hash' && item.id === 'file:') {
      this.replace(token, '#file:');
      return this.actions.agentMode.suggestFiles('', 0);
    }
    if (popup.kind === 'file' && item.id.endsWith('/')) {
      // A folder: walk down into it.
      this.replace(token, `#file:${item.id}`);
      return this.actions.agentMode.suggestFiles(item.id, 0);
    }
    this.actions.agentMode.addChip(
      popup.kind === 'file'
        ? { kind: 'attachment', attachment: { kind: 'file', path: item.id } }
        : item.id === 'codebase'
          ? { kind: 'attachment', attachment: { kind: 'codebase' } }
          : { kind: 'editor-selection' },
    );
    this.actions.agentMode.closeFileCompletion();
    this.replace(token, '');
  }

  private replace(token: NonNullable<ComposerPopup['token']>, replacement: string): void {
    const next = replaceToken(this.draft, token, replacement);
    this.write(next.text, next.caret);
  }

  /** Writes the draft and puts the caret at `caret` once the textarea shows it. */
  private write(draft: string, caret: number): void {
    this.pendingCaret = { draft, caret };
    this.caret = caret;
    this.actions.setDraft(draft);
  }

  private readonly submit = () => {
    this.actions.submit(this.draft);
  };
}

/** The option's id for `aria-activedescendant`; commands keep their name-based ids. */
function itemId(popup: ComposerPopup, item: PopupItem, index: number): string {
  return popup.kind === 'command' ? `cmd-${item.id}` : `${popup.kind}-option-${index}`;
}

customElements.define('cw-composer', CwComposer);
