import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Actions } from '../actions';
import { matchCommands, type SlashCommand, slashQuery } from '../slashCommands';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** The input at the bottom: Enter sends, Shift+Enter breaks the line, `/` at the start opens the command popup. */
export class CwComposer extends CwElement {
  static override properties = {
    draft: { attribute: false },
    busy: { attribute: false },
    active: { state: true },
    dismissedFor: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; position: relative; padding: 6px 8px; border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
      .box { display: flex; align-items: flex-end; gap: 4px; border: 1px solid var(--vscode-input-border, transparent); background: var(--vscode-input-background); border-radius: 2px; }
      .box:focus-within { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
      textarea { border: none; resize: none; min-height: 2.4em; max-height: 12em; field-sizing: content; background: transparent; }
      textarea:focus { outline: none; }
      .popup { position: absolute; left: 8px; right: 8px; bottom: calc(100% - 4px); margin: 0; padding: 4px 0; list-style: none; z-index: 10;
        background: var(--vscode-quickInput-background, var(--vscode-editorWidget-background)); color: var(--vscode-quickInput-foreground);
        border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); box-shadow: 0 2px 8px var(--vscode-widget-shadow); border-radius: 3px; }
      .popup li { display: flex; gap: 8px; padding: 3px 10px; cursor: pointer; }
      .popup li[aria-selected='true'] { background: var(--vscode-quickInputList-focusBackground, var(--vscode-list-activeSelectionBackground)); color: var(--vscode-quickInputList-focusForeground, var(--vscode-list-activeSelectionForeground)); outline: 1px solid var(--vscode-contrastActiveBorder, transparent); }
      .name { font-weight: 600; }
    `,
  ];

  declare draft: string;
  declare busy: boolean;
  declare active: number;
  /** The text the popup was closed for with Esc; typing anything else opens it again. */
  declare dismissedFor: string | undefined;
  actions!: Actions;

  constructor() {
    super();
    this.draft = '';
    this.busy = false;
    this.active = 0;
  }

  /** The commands to offer for the current text, or none when the popup is closed. */
  private get commands(): SlashCommand[] {
    const query = slashQuery(this.draft);
    if (query === undefined || this.draft === this.dismissedFor) return [];
    return matchCommands(query);
  }

  override render() {
    const commands = this.commands;
    const active = Math.min(this.active, Math.max(commands.length - 1, 0));
    return html`
      ${commands.length ? this.renderPopup(commands, active) : nothing}
      <div class="box">
        <textarea
          rows="1"
          placeholder="Ask CodeWiki, or type / for commands"
          aria-label="Message"
          role="combobox"
          aria-expanded=${commands.length > 0}
          aria-controls="slash-popup"
          aria-activedescendant=${commands.length ? `cmd-${commands[active].name}` : ''}
          .value=${live(this.draft)}
          @input=${this.onInput}
          @keydown=${this.onKeyDown}
        ></textarea>
        ${this.busy
          ? html`<button class="icon stop" title="Stop" aria-label="Stop" @click=${() => this.actions.stop()}>${icon('debug-stop')}</button>`
          : html`<button class="icon send" title="Send (Enter)" aria-label="Send" ?disabled=${!this.draft.trim()} @click=${this.submit}>${icon('send')}</button>`}
      </div>
    `;
  }

  private renderPopup(commands: SlashCommand[], active: number) {
    return html`<ul class="popup" id="slash-popup" role="listbox" aria-label="Commands">
      ${commands.map(
        (c, i) => html`<li id="cmd-${c.name}" role="option" aria-selected=${i === active} data-command=${c.name}
            @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.pick(c)}>
          <span class="name">/${c.name}</span><span class="muted">${c.description}</span>
        </li>`,
      )}
    </ul>`;
  }

  override focus(): void {
    this.renderRoot.querySelector('textarea')?.focus();
  }

  private readonly onInput = (event: Event) => {
    this.active = 0;
    this.actions.setDraft((event.target as HTMLTextAreaElement).value);
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return; // an IME is still composing: Enter confirms its text, not ours
    const commands = this.commands;
    if (commands.length > 0) {
      const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (move) this.active = (Math.min(this.active, commands.length - 1) + move + commands.length) % commands.length;
      else if (event.key === 'Enter' || event.key === 'Tab') this.pick(commands[Math.min(this.active, commands.length - 1)]);
      else if (event.key === 'Escape') this.dismissedFor = this.draft;
      else return;
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      this.submit();
    }
  };

  private pick(command: SlashCommand): void {
    this.active = 0;
    this.actions.runCommand(command.name);
  }

  private readonly submit = () => {
    this.actions.submit(this.draft);
  };
}

customElements.define('cw-composer', CwComposer);
