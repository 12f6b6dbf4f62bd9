import { css, html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { ChatMode, HostStatus } from '../../../src/shared/protocol';
import { renderMarkdown } from '../markdown';
import { MODE_SUMMARY } from '../slashCommands';
import type { Actions } from '../actions';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';

/**
 * Shown instead of an empty conversation. When no endpoint or model is configured it says exactly
 * what is missing and offers the two ways to fix it; otherwise it is a short welcome.
 */
export class CwEmptyState extends CwElement {
  static override properties = { status: { attribute: false }, mode: { attribute: false }, compact: { type: Boolean, reflect: true } };
  static override styles = [
    baseStyles,
    css`
      :host { display: block; padding: 16px; }
      :host([compact]) { padding: 6px 12px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
      h2 { font-size: 1.15em; margin: 0 0 8px; display: flex; gap: 6px; align-items: center; }
      ul { padding-left: 1.2em; margin: 6px 0; }
      code { font-family: var(--vscode-editor-font-family); }
      .summary p { margin: 0; }
      .buttons { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 10px; }
    `,
  ];

  declare status: HostStatus | undefined;
  declare compact: boolean;
  /** The welcome says what the current mode can see: only agent mode reads the workspace by itself. */
  declare mode: ChatMode;
  actions!: Actions;

  constructor() {
    super();
    this.compact = false;
    this.mode = 'agent';
  }

  override render() {
    if (!this.status || this.status.configured) return this.renderWelcome();
    if (this.status.problem) return this.renderProblem(this.status);
    const missing = missingSettings(this.status);
    return html`<section class="setup" aria-label="Setup">
      <h2>${icon('warning')} Connect CodeWiki to a model</h2>
      ${
        this.compact
          ? html`<div class="muted">Set ${missing.map((m, i) => html`${i ? ' and ' : ''}<code>codewiki.${m}</code>`)} to chat.</div>`
          : html`<p>CodeWiki talks to any OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM, llama.cpp). Still missing:</p>
            <ul>
              ${missing.includes('baseUrl') ? html`<li><code>codewiki.baseUrl</code>: the endpoint, ending in <code>/v1</code> (e.g. <code>http://127.0.0.1:11434/v1</code>)</li>` : nothing}
              ${missing.includes('model') ? html`<li><code>codewiki.model</code>: the model name (e.g. <code>gpt-4o-mini</code>, <code>llama3.1</code>)</li>` : nothing}
            </ul>
            <p class="muted">${this.status.hasApiKey ? 'An API key is stored.' : 'An API key is optional for local servers; it is kept in VS Code’s secret storage.'}</p>
            ${
              this.status.localModel
                ? html`<p class="local-model">Or run a small model on this machine: <code>${this.status.localModel}</code> on llama.cpp. The first start builds llama.cpp and downloads the weights (about 15 minutes, once); later starts take seconds.</p>`
                : nothing
            }`
      }
      <div class="buttons">
        <button class="open-settings" @click=${() => this.actions.openSettings(missing[0])}>${icon('gear')} Open settings</button>
        ${this.status.localModel ? html`<button class="secondary start-local-model" @click=${() => this.actions.startLocalModel()}>${icon('play')} Start local model</button>` : nothing}
        <button class="secondary set-key" @click=${() => this.actions.setApiKey()}>${icon('key')} Set API key</button>
      </div>
    </section>`;
  }

  /** The host's own words (e.g. no VS Code language model is available) with what to do; shown as text. */
  private renderProblem(status: HostStatus) {
    return html`<section class="setup" aria-label="Setup" data-provider=${status.provider ?? 'openai'}>
      <h2>${icon('warning')} ${status.provider === 'vscode' ? 'No VS Code language model' : 'No model can answer'}</h2>
      <p class="problem">${status.problem}</p>
      <div class="buttons">
        <button class="open-settings" @click=${() => this.actions.openSettings()}>${icon('gear')} Open settings</button>
      </div>
    </section>`;
  }

  private renderWelcome() {
    const agent = this.mode === 'agent';
    return html`<section class="welcome" data-mode=${this.mode}>
      <h2>${icon(agent ? 'sparkle' : 'comment-discussion')} ${agent ? 'Ask about your workspace' : 'Ask a question'}</h2>
      <p class="muted summary">${unsafeHTML(renderMarkdown(MODE_SUMMARY[this.mode]))}</p>
      <p class="muted">Type <code>/</code> for commands: <code>/agent</code> runs an action prompt from a form and shows its steps live.</p>
    </section>`;
  }
}

function missingSettings(status: HostStatus): Array<'baseUrl' | 'model'> {
  const missing: Array<'baseUrl' | 'model'> = [];
  if (!status.baseUrl) missing.push('baseUrl');
  if (!status.model) missing.push('model');
  // Configured is false for a reason the fields do not show (e.g. an invalid URL): point at the endpoint.
  return missing.length ? missing : ['baseUrl'];
}

customElements.define('cw-empty-state', CwEmptyState);
