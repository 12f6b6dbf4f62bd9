import { css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ToolInfo, ToolsState } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import { baseStyles } from '../styles';
import { CwElement, icon } from './cwElement';
import { kindBadgeStyles } from './kindBadge';

/** A checkbox with `role=switch` drawn as a toggle. */
const switchStyles = css`
  input[role='switch'] { appearance: none; flex: none; width: 28px; height: 16px; margin: 0; padding: 0; border-radius: 8px; position: relative; cursor: pointer;
    background: var(--vscode-input-background); border: 1px solid var(--vscode-checkbox-border, var(--vscode-input-border, var(--vscode-descriptionForeground))); }
  input[role='switch']::before { content: ''; position: absolute; top: 2px; left: 2px; width: 10px; height: 10px; border-radius: 50%; background: var(--vscode-descriptionForeground); transition: left 0.1s; }
  input[role='switch']:checked { background: var(--vscode-button-background); border-color: var(--vscode-button-background); }
  input[role='switch']:checked::before { left: 14px; background: var(--vscode-button-foreground); }
  input[role='switch']:disabled { opacity: 0.4; cursor: default; }
  @media (prefers-reduced-motion: reduce) { input[role='switch']::before { transition: none; } }
`;

/**
 * The tool picker: which of the workspace's tools the agent may call, all of them at once, and
 * whether tools not seen yet start on. Descriptions may come from workspace files: shown as text.
 */
export class CwToolsPanel extends CwElement {
  static override properties = { tools: { attribute: false } };
  static override styles = [
    baseStyles,
    switchStyles,
    kindBadgeStyles,
    css`
      :host { display: flex; flex-direction: column; min-height: 0; }
      header { display: flex; align-items: center; gap: 6px; padding: 8px 8px 4px; font-weight: 600; }
      header .back { margin-left: auto; }
      .tester { padding: 0 8px 8px; }
      .settings { padding: 0 8px 6px; display: flex; flex-direction: column; gap: 6px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
      .setting { display: flex; gap: 8px; align-items: center; }
      ul { list-style: none; margin: 0; padding: 4px; overflow-y: auto; flex: 1; }
      li { display: flex; gap: 8px; align-items: flex-start; padding: 4px; border-radius: 2px; min-width: 0; }
      li:hover { background: var(--vscode-list-hoverBackground); }
      li input { margin-top: 2px; }
      .info { flex: 1; min-width: 0; }
      .line { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; min-width: 0; }
      .name { font-weight: 600; overflow-wrap: anywhere; }
      .tool-name { font-family: var(--vscode-editor-font-family); font-size: 0.9em; overflow-wrap: anywhere; }
      .description { margin: 2px 0 0; overflow-wrap: anywhere; white-space: pre-wrap; }
      li.unavailable .name, li.unavailable .description { opacity: 0.6; }
      .note { font-size: 0.9em; font-style: italic; }
      .off { padding: 4px 8px; }
      .empty { padding: 8px 12px; }
    `,
  ];

  declare tools: ToolsState | undefined;
  actions!: Actions;

  /** Asked for each time the panel opens, like the history list. */
  override connectedCallback(): void {
    super.connectedCallback();
    this.actions.agentMode.requestTools();
  }

  override render() {
    const tools = this.tools;
    const on = tools ? tools.tools.filter((t) => t.agentCallable && t.enabled).length : 0;
    const callable = tools ? tools.tools.filter((t) => t.agentCallable).length : 0;
    return html`
      <header>${icon('tools')} Tools ${tools && !tools.unavailable ? html`<span class="muted count">${on} of ${callable} on</span>` : nothing}
        <button class="secondary back" @click=${() => this.actions.showPanel('chat')}>Back to chat</button>
      </header>
      ${
        !tools
          ? html`<p class="muted empty">Loading…</p>`
          : tools.unavailable
            ? html`<p class="muted empty unavailable-reason">${tools.unavailable}</p>`
            : this.renderTools(tools)
      }
    `;
  }

  private renderTools(tools: ToolsState) {
    return html`<div class="settings">
        <label class="setting master"><input type="checkbox" role="switch" .checked=${tools.enabled}
          @change=${(e: Event) => this.actions.agentMode.setToolsEnabled((e.target as HTMLInputElement).checked)} /> Let the agent use tools</label>
        <label class="setting new-tools"><input type="checkbox" role="switch" .checked=${tools.enableNewTools}
          @change=${(e: Event) => this.actions.agentMode.setEnableNewTools((e.target as HTMLInputElement).checked)} /> Turn on new tools by default</label>
        <button class="secondary open-tester" title="See what the model is told, try a tool call by hand, test your server"
          @click=${() => this.actions.agentMode.openToolTester()}>${icon('beaker')} Open Tool Tester</button>
      </div>
      ${tools.enabled ? nothing : html`<p class="muted off">Tools are off: the agent answers from the conversation alone.</p>`}
      ${
        tools.tools.length === 0
          ? html`<p class="muted empty">This workspace has no tools.</p>`
          : html`<ul aria-label="Tools">${repeat(
              tools.tools,
              (t) => t.name,
              (t) => this.renderTool(t),
            )}</ul>`
      }`;
  }

  private renderTool(tool: ToolInfo) {
    const id = `tool-${tool.name}`;
    return html`<li data-tool=${tool.name} class=${tool.agentCallable ? '' : 'unavailable'}>
      <input type="checkbox" role="switch" id=${id} aria-describedby="${id}-description" .checked=${tool.agentCallable && tool.enabled} ?disabled=${!tool.agentCallable}
        @change=${(e: Event) => this.actions.agentMode.toggleTool(tool.name, (e.target as HTMLInputElement).checked)} />
      <div class="info">
        <div class="line"><label class="name" for=${id}>${tool.displayName}</label><span class="badge kind" data-kind=${tool.kind}>${tool.kind}</span>
          <span class="tool-name muted">${tool.name}</span></div>
        <p class="description muted" id="${id}-description">${tool.description}</p>
        ${tool.agentCallable ? nothing : html`<p class="note muted">Workflow only: the agent cannot call this tool.</p>`}
      </div>
    </li>`;
  }
}

customElements.define('cw-tools-panel', CwToolsPanel);
