import { css, html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ConversationSummary } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { formatWhen } from '../format';
import type { HistoryState } from '../state';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/** Search waits for a pause in typing so the host is not asked once per key. */
const SEARCH_DELAY_MS = 150;

/** Past conversations: search, open, rename inline, delete after a confirmation, export to Markdown. */
export class CwHistory extends CwElement {
  static override properties = {
    history: { attribute: false },
    currentId: { attribute: false },
    renaming: { state: true },
    confirming: { state: true },
    query: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      :host { display: flex; flex-direction: column; }
      header { display: flex; align-items: center; gap: 6px; padding: 8px 8px 4px; font-weight: 600; }
      header .back { margin-left: auto; }
      .search { padding: 0 8px 6px; }
      ul { list-style: none; margin: 0; padding: 0 4px; overflow-y: auto; flex: 1; }
      li { display: flex; align-items: center; gap: 4px; padding: 2px 4px; border-radius: 2px; border: 1px solid transparent; }
      li:hover, li:focus-within { background: var(--vscode-list-hoverBackground); }
      li.current { border-color: var(--vscode-list-inactiveSelectionBackground, var(--vscode-contrastBorder, transparent)); }
      .open { flex: 1; min-width: 0; background: transparent; color: var(--vscode-foreground); border: none; padding: 4px; display: block; text-align: left; }
      .open:hover { background: transparent; }
      .title, .preview { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .preview { font-size: 0.9em; }
      .confirm { flex: 1; display: flex; align-items: center; gap: 6px; padding: 4px; }
      .confirm span { flex: 1; }
      .empty { padding: 8px 12px; }
    `,
  ];

  declare history: HistoryState;
  declare currentId: string | undefined;
  declare renaming: string | undefined;
  declare confirming: string | undefined;
  declare query: string | undefined;
  actions!: Actions;
  private searchTimer?: ReturnType<typeof setTimeout>;

  /** The list is asked for each time the panel opens: conversations change while it is closed. */
  override connectedCallback(): void {
    super.connectedCallback();
    this.actions.requestHistory(this.history.query);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
  }

  override render() {
    const { items, loaded } = this.history;
    return html`
      <header>${icon('history')} History
        <button class="secondary back" @click=${() => this.actions.showPanel('chat')}>Back to chat</button>
      </header>
      <div class="search"><input type="search" placeholder="Search conversations" aria-label="Search conversations"
        .value=${live(this.query ?? this.history.query)} @input=${this.onSearch} /></div>
      ${
        items.length === 0
          ? html`<p class="muted empty">${loaded ? (this.history.query ? 'No conversation matches.' : 'No conversations yet.') : 'Loading…'}</p>`
          : html`<ul aria-label="Conversations">${items.map((item) => this.renderItem(item))}</ul>`
      }
    `;
  }

  private renderItem(item: ConversationSummary) {
    const current = item.id === this.currentId;
    if (this.confirming === item.id) {
      return html`<li data-id=${item.id}><div class="confirm" role="alertdialog" aria-label="Confirm delete">
        <span>Delete “${item.title}”? This cannot be undone.</span>
        <button class="confirm-delete" @click=${() => this.deleteItem(item.id)}>Delete</button>
        <button class="secondary cancel-delete" @click=${() => (this.confirming = undefined)}>Cancel</button>
      </div></li>`;
    }
    return html`<li data-id=${item.id} class=${current ? 'current' : ''}>
      ${
        this.renaming === item.id
          ? html`<input class="rename" aria-label="New title" .value=${item.title} @keydown=${(e: KeyboardEvent) => this.onRenameKey(e, item)} @blur=${(e: Event) => this.commitRename(item, e)} />`
          : html`<button class="open" title=${new Date(item.updatedAt).toLocaleString()} @click=${() => this.actions.openConversation(item.id)}>
            <span class="title">${item.title}</span>
            <span class="preview muted">${formatWhen(item.updatedAt)} · ${item.messageCount} messages${item.preview ? html` · ${item.preview}` : nothing}</span>
          </button>`
      }
      <button class="icon rename-button" title="Rename" aria-label="Rename" @click=${() => this.startRename(item.id)}>${icon('edit')}</button>
      <button class="icon export" title="Export to Markdown" aria-label="Export to Markdown" @click=${() => this.actions.exportConversation(item.id)}>${icon('export')}</button>
      <button class="icon delete" title="Delete" aria-label="Delete" @click=${() => (this.confirming = item.id)}>${icon('trash')}</button>
    </li>`;
  }

  private readonly onSearch = (event: Event) => {
    this.query = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.actions.requestHistory(this.query ?? ''), SEARCH_DELAY_MS);
  };

  private async startRename(id: string): Promise<void> {
    this.renaming = id;
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input.rename');
    input?.focus();
    input?.select();
  }

  private onRenameKey(event: KeyboardEvent, item: ConversationSummary): void {
    if (event.key === 'Enter') this.commitRename(item, event);
    else if (event.key === 'Escape') this.renaming = undefined;
    else return;
    event.preventDefault();
  }

  /** Enter and leaving the field both save, like renaming in the Explorer; an empty or unchanged title saves nothing. */
  private commitRename(item: ConversationSummary, event: Event): void {
    if (this.renaming !== item.id) return;
    const title = (event.target as HTMLInputElement).value.trim();
    this.renaming = undefined;
    if (title && title !== item.title) this.actions.renameConversation(item.id, title);
  }

  private deleteItem(id: string): void {
    this.confirming = undefined;
    this.actions.deleteConversation(id);
  }
}

customElements.define('cw-history', CwHistory);
