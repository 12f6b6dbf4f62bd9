import { css, html, nothing, type PropertyValues } from 'lit';
import type { AssistantMessage, ChatMessage, UserMessage } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { formatTokens } from '../format';
import { createAnswerRenderer } from '../markdown';
import type { Store } from '../state';
import { baseStyles, markdownStyles } from '../styles';
import { renderPromptRun, runStyles } from './promptRunView';
import { CwElement, icon } from './cwElement';
import './cw-agent-turn';
import './cw-code-block';
import './cw-step-list';
import { markdownBlocks } from './markdownBlocksDirective';
import { renderThinking, thinkingStyles } from './thinkingBlock';

/**
 * One message. It watches its own id in the store, so a streamed chunk re-renders this component
 * alone: the list and every other message stay untouched.
 */
export class CwMessage extends CwElement {
  static override properties = { message: { attribute: false } };
  static override styles = [
    baseStyles,
    markdownStyles,
    runStyles,
    thinkingStyles,
    css`
      :host { display: block; margin-bottom: 10px; }
      .msg { padding: 6px 8px; border-radius: 4px; }
      .user { background: var(--vscode-chat-requestBackground, var(--vscode-input-background)); border: 1px solid var(--vscode-chat-requestBorder, var(--vscode-contrastBorder, transparent)); }
      .head { display: flex; align-items: center; gap: 6px; font-weight: 600; margin-bottom: 4px; }
      .head .muted { font-weight: normal; }
      .text { white-space: pre-wrap; overflow-wrap: anywhere; }
      .status-line { margin-top: 6px; display: flex; gap: 8px; align-items: center; }
      .error-box { margin-top: 6px; }
      .toolbar { margin-top: 4px; }
      .answer-tokens { margin-left: auto; font-size: 0.9em; font-variant-numeric: tabular-nums; }
    `,
  ];

  declare message: ChatMessage;
  store!: Store;
  actions!: Actions;
  private unwatch?: () => void;
  private watchedId?: string;
  /** Keeps the blocks already rendered, so a chunk re-renders only the answer's open block. */
  private readonly answer = createAnswerRenderer();

  protected override get counterName(): string {
    return `cw-message#${this.message?.id}`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.watch();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unwatch?.();
    this.unwatch = this.watchedId = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('message') && this.isConnected && this.message?.id !== this.watchedId) this.watch();
  }

  private watch(): void {
    this.unwatch?.();
    if (!this.store || !this.message) return;
    this.watchedId = this.message.id;
    this.unwatch = this.store.watchMessage(this.message.id, (message) => (this.message = message));
  }

  override render() {
    const m = this.message;
    if (!m) return nothing;
    if (m.kind === 'user') return this.renderUser(m);
    if (m.kind === 'assistant') return this.renderAssistant(m);
    if (m.kind === 'agent-turn') return html`<cw-agent-turn .turn=${m} .store=${this.store} .actions=${this.actions}></cw-agent-turn>`;
    return renderPromptRun(m, this.actions, this.markdown);
  }

  private renderUser(m: UserMessage) {
    return html`<div class="msg user" data-kind="user">
      <div class="head">${icon('account')}<span>You</span></div>
      <div class="text">${m.text}</div>
    </div>`;
  }

  private renderAssistant(m: AssistantMessage) {
    const streaming = m.status === 'streaming';
    return html`<div class="msg assistant" data-kind="assistant" data-status=${m.status}>
      <div class="head">
        ${icon(streaming ? 'loading' : 'sparkle', streaming ? 'spin' : '')}<span>CodeWiki</span>
        ${m.model ? html`<span class="muted">${m.model}</span>` : nothing}
      </div>
      ${
        m.condensedTurns
          ? html`<div class="muted condensed">${icon('history')} ${m.condensedTurns} earlier exchange${m.condensedTurns === 1 ? '' : 's'} condensed to fit the model's context</div>`
          : nothing
      }
      ${renderThinking(m.reasoning)}
      <div class="markdown">${this.markdown(m.text, streaming)}</div>
      ${streaming && !m.text ? html`<div class="muted">Thinking…</div>` : nothing}
      ${m.status === 'stopped' ? html`<div class="status-line"><span class="badge stopped">Stopped</span><span class="muted">The answer was stopped; what arrived is kept.</span></div>` : nothing}
      ${
        m.status === 'error'
          ? html`<div class="error-box" role="alert"><span class="error-message">${icon('error')} ${m.error ?? 'The request failed.'}</span>
            <button class="secondary retry" @click=${() => this.actions.retry(m.id)}>${icon('refresh')} Retry</button></div>`
          : nothing
      }
      ${
        !streaming && m.text
          ? html`<div class="toolbar answer-actions">
            <button class="icon" title="Copy answer" aria-label="Copy answer" data-action="copy" @click=${() => this.actions.code('copy', m.text)}>${icon('copy')}</button>
            <button class="icon" title="Insert at cursor" aria-label="Insert answer at cursor" data-action="insert" @click=${() => this.actions.code('insert', m.text)}>${icon('insert')}</button>
            ${m.usage?.total ? html`<span class="muted answer-tokens" title=${`${m.usage.input.toLocaleString('en-US')} in, ${m.usage.output.toLocaleString('en-US')} out`}>${formatTokens(m.usage.total)}</span>` : nothing}
          </div>`
          : nothing
      }
    </div>`;
  }

  /** A chunk re-renders only the answer's open block; finished blocks keep their DOM. */
  private readonly markdown = (text: string, streaming: boolean) => markdownBlocks(this.answer(text, streaming));
}

customElements.define('cw-message', CwMessage);
