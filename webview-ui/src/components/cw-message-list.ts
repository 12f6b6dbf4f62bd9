import { css, html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ChatMessage } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import type { Store } from '../state';
import { baseStyles } from '../styles';
import { CwElement } from './cwElement';
import './cw-message';

/** Older messages added each time the user scrolls near the top. */
export const WINDOW_STEP = 40;
/** The first render shows fewer: enough to fill a tall sidebar, so a long chat opens as fast as a short one. */
export const FIRST_WINDOW = 16;

/**
 * The conversation, newest at the bottom, and the one scroll area of the chat: what the app puts
 * inside this element (the welcome, `/help`, the prompt picker or form) follows the last message. Only the newest messages are rendered; a sentinel at the
 * top grows the window as it scrolls into view. The scroller is `column-reverse`, which keeps the
 * view pinned to the bottom while an answer grows and keeps the position when older messages appear.
 */
export class CwMessageList extends CwElement {
  static override properties = {
    messages: { attribute: false },
    top: { type: Boolean },
    conversationId: { attribute: false },
    windowSize: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; }
      .scroller { height: 100%; overflow-y: auto; display: flex; flex-direction: column-reverse; }
      .content { padding: 8px 12px 12px; min-width: 0; }
      /* With nothing to read yet, the welcome starts at the top; once the column overflows, the auto margin is 0. */
      .content.top { margin-bottom: auto; }
      .older { margin: 4px auto 8px; display: flex; }
      cw-message { content-visibility: auto; contain-intrinsic-size: auto 120px; }
    `,
  ];

  declare messages: ChatMessage[];
  /** Lays the content out from the top (the empty state) instead of from the bottom (a conversation). */
  declare top: boolean;
  declare conversationId: string | undefined;
  declare windowSize: number;
  store!: Store;
  actions!: Actions;
  private observer?: IntersectionObserver;

  constructor() {
    super();
    this.messages = [];
    this.top = false;
    this.windowSize = FIRST_WINDOW;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('conversationId')) this.windowSize = FIRST_WINDOW;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.observer = undefined;
  }

  override render() {
    const start = Math.max(0, this.messages.length - this.windowSize);
    const visible = start === 0 ? this.messages : this.messages.slice(start);
    return html`
      <div class="scroller" role="log" aria-live="polite" aria-label="Conversation">
        <div class="content ${this.top ? 'top' : ''}">
          ${
            start > 0
              ? html`<button class="secondary older" @click=${this.showOlder}>Show ${Math.min(start, WINDOW_STEP)} earlier of ${start}</button><div class="sentinel"></div>`
              : nothing
          }
          ${repeat(
            visible,
            (m) => m.id,
            (m) => html`<cw-message data-id=${m.id} .message=${m} .store=${this.store} .actions=${this.actions}></cw-message>`,
          )}
          <slot></slot>
        </div>
      </div>
    `;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const sentinel = this.renderRoot.querySelector('.sentinel');
    this.observer?.disconnect();
    if (!sentinel) return;
    this.observer ??= new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && this.showOlder(), {
      root: this.renderRoot.querySelector('.scroller'),
      rootMargin: '400px 0px 0px 0px',
    });
    this.observer.observe(sentinel);
  }

  private readonly showOlder = () => {
    if (this.windowSize < this.messages.length) this.windowSize += WINDOW_STEP;
  };
}

customElements.define('cw-message-list', CwMessageList);
