import { css, html, nothing, type PropertyValues } from 'lit';
import type { Actions, CodeAction } from '../actions';
import type { AppState, Store } from '../state';
import { baseStyles } from '../styles';
import { CwElement } from './cwElement';
import './cw-approval-card';
import './cw-composer';
import './cw-empty-state';
import './cw-history';
import './cw-message-list';
import './cw-notices';
import './cw-prompt-form';
import './cw-prompt-picker';
import './cw-status-bar';
import './cw-tools-panel';

export interface CodeActionDetail {
  action: CodeAction;
  text: string;
  language?: string;
}

/** The whole view: it follows the store and lays out the panels; every action goes through `Actions`. */
export class CwApp extends CwElement {
  static override properties = { state: { attribute: false } };
  static override styles = [
    baseStyles,
    css`
      :host { display: flex; flex-direction: column; height: 100vh; overflow: hidden; }
      .main { flex: 1; min-height: 0; display: flex; flex-direction: column; }
      cw-message-list, cw-history { flex: 1; min-height: 0; }
      cw-tools-panel { flex: 1; min-height: 0; }
      .orphan-approvals { padding: 0 8px; max-height: 50vh; overflow: auto; }
      /* The picker and the form sit in the conversation's scroll area, after the last message, as a card. */
      cw-prompt-picker, cw-prompt-form { display: block; margin: 4px 0 0; border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent));
        border-radius: 3px; background: var(--vscode-editorWidget-background, transparent); }
      cw-empty-state.welcome-card { padding: 4px 0 8px; }
      .loading { padding: 16px; }
    `,
  ];

  declare state: AppState;
  store!: Store;
  actions!: Actions;
  private unsubscribe?: () => void;

  override connectedCallback(): void {
    super.connectedCallback();
    this.state = this.store.current;
    this.unsubscribe = this.store.subscribe((state) => (this.state = state));
    this.addEventListener('cw-code-action', this.onCodeAction);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.removeEventListener('cw-code-action', this.onCodeAction);
  }

  /** Code-block buttons live inside rendered Markdown, so they report by a composed event instead of a property. */
  private readonly onCodeAction = (event: Event) => {
    const { action, text, language } = (event as CustomEvent<CodeActionDetail>).detail;
    this.actions.code(action, text, language);
  };

  /** Closing a panel (picker, form, history) hands the keyboard back to the composer. */
  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const before = changed.get('state') as AppState | undefined;
    if (before && before.panel !== 'chat' && this.state.panel === 'chat') (this.renderRoot.querySelector('cw-composer') as HTMLElement | null)?.focus();
    const opened = this.state.panel === 'picker' || this.state.panel === 'form' ? this.state.panel : undefined;
    if (opened && (before?.panel !== opened || before.form?.promptId !== this.state.form?.promptId)) void this.revealPanel(opened);
  }

  /**
   * Brings a just-opened picker or form into view: whole when it fits, so the form's Run button shows
   * at once, otherwise from its top (search box, first field), leaving a single scroll to reach the rest.
   */
  private async revealPanel(panel: 'picker' | 'form'): Promise<void> {
    const element = this.renderRoot.querySelector(panel === 'picker' ? 'cw-prompt-picker' : 'cw-prompt-form') as
      (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
    const scroller = (this.renderRoot.querySelector('cw-message-list') as HTMLElement | null)?.shadowRoot?.querySelector('.scroller');
    if (!element || !scroller) return;
    await element.updateComplete;
    const fits = element.getBoundingClientRect().height <= scroller.getBoundingClientRect().height;
    element.scrollIntoView({ block: fits ? 'end' : 'start' });
  }

  override render() {
    const s = this.state;
    return html`
      <div class="main">${this.renderMain(s)}</div>
      ${this.renderOrphanApprovals(s)}
      <cw-notices .notices=${s.notices.filter((n) => n.kind !== 'help')} .actions=${this.actions}></cw-notices>
      <cw-composer .draft=${s.draft} .busy=${Boolean(s.activeId)} .mode=${s.mode} .chips=${s.chips} .tools=${s.tools} .fileCompletion=${s.fileCompletion}
        .actions=${this.actions}></cw-composer>
      <cw-status-bar .status=${s.status} .actions=${this.actions}></cw-status-bar>
    `;
  }

  private renderMain(s: AppState) {
    if (s.panel === 'history') return html`<cw-history .history=${s.history} .currentId=${s.conversationId} .actions=${this.actions}></cw-history>`;
    if (s.panel === 'tools') return html`<cw-tools-panel .tools=${s.tools} .actions=${this.actions}></cw-tools-panel>`;
    if (!s.initialized) return html`<div class="loading muted">Loading…</div>`;
    const unconfigured = s.status && !s.status.configured;
    const empty = s.messages.length === 0;
    const help = s.notices.filter((n) => n.kind === 'help');
    // One scroll area: the conversation, then the welcome, `/help` and the picker or form after it.
    return html`
      ${unconfigured && !empty ? html`<cw-empty-state compact .status=${s.status} .mode=${s.mode} .actions=${this.actions}></cw-empty-state>` : nothing}
      <cw-message-list .messages=${s.messages} .conversationId=${s.conversationId} ?top=${empty && s.panel === 'chat'} .store=${this.store} .actions=${this.actions}>
        ${empty ? html`<cw-empty-state class="welcome-card" .status=${s.status} .mode=${s.mode} .actions=${this.actions}></cw-empty-state>` : nothing}
        ${help.length ? html`<cw-notices class="help" .notices=${help} .actions=${this.actions}></cw-notices>` : nothing}
        ${this.renderPanel(s)}
      </cw-message-list>
    `;
  }

  /** A card whose turn is not shown (another conversation was opened while it waits) stays answerable here. */
  private renderOrphanApprovals(s: AppState) {
    const orphans = s.approvals.filter((a) => !a.settled && !s.messages.some((m) => m.id === a.prompt.turnId));
    if (orphans.length === 0) return nothing;
    return html`<div class="orphan-approvals">${orphans.map((a) => html`<cw-approval-card .entry=${a} .actions=${this.actions}></cw-approval-card>`)}</div>`;
  }

  private renderPanel(s: AppState) {
    if (s.panel === 'picker') {
      return html`<cw-prompt-picker .prompts=${s.prompts} .query=${s.pickerQuery} .restricted=${s.status ? !s.status.trusted : false} .actions=${this.actions}></cw-prompt-picker>`;
    }
    const prompt = s.panel === 'form' && s.form ? s.prompts.find((p) => p.id === s.form?.promptId) : undefined;
    if (!prompt || !s.form) return nothing;
    return html`<cw-prompt-form .prompt=${prompt} .form=${s.form} .actions=${this.actions}></cw-prompt-form>`;
  }
}

customElements.define('cw-app', CwApp);
