import { css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { AgentContextRef, AgentTurnMessage } from '../../../src/shared/protocol';
import type { Actions } from '../actions';
import type { ApprovalEntry } from '../agentModeState';
import { answerParts, type CallNode, callKey, callTree, contextFill, type LiveAgentTurn, stopReasonText, turnSummary } from '../agentTurns';
import { clickedReference, linkFileReferences } from '../fileLinks';
import { createAnswerRenderer } from '../markdown';
import type { AppState, Store } from '../state';
import { baseStyles, markdownStyles } from '../styles';
import { CwElement, icon } from './cwElement';
import './cw-approval-card';
import './cw-code-block';
import './cw-elapsed';
import { toolCallRowStyles } from './cw-tool-call-row';
import { markdownBlocks } from './markdownBlocksDirective';
import { renderThinking, thinkingStyles } from './thinkingBlock';

const NO_APPROVALS: readonly ApprovalEntry[] = [];

/**
 * An agent-mode answer: the work (tool calls, thinking, warnings) in a block that is live while the
 * turn runs and collapses to one summary line after, the approval cards of this turn, then the
 * answer, rendered by the same safe renderer as chat answers, with `path:line` references linked.
 */
export class CwAgentTurn extends CwElement {
  static override properties = {
    turn: { attribute: false },
    approvals: { state: true },
    workOpen: { state: true },
  };
  static override styles = [
    baseStyles,
    markdownStyles,
    ...toolCallRowStyles,
    thinkingStyles,
    css`
      :host { display: block; min-width: 0; }
      .msg { padding: 6px 8px; border-radius: 4px; }
      .head { display: flex; align-items: center; gap: 6px; font-weight: 600; margin-bottom: 4px; min-width: 0; }
      .head .muted { font-weight: normal; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      .context { font-size: 0.9em; margin-bottom: 4px; overflow-wrap: anywhere; }
      .work { border-left: 2px solid var(--vscode-tree-indentGuidesStroke, var(--vscode-widget-border)); margin: 2px 0 8px; padding-left: 4px; min-width: 0; }
      .work-head { display: flex; align-items: center; gap: 4px; width: 100%; min-width: 0; background: transparent; color: var(--vscode-descriptionForeground);
        border: 1px solid transparent; padding: 2px 4px; text-align: left; }
      .work-head:hover { background: var(--vscode-list-hoverBackground); }
      .work-head .label { min-width: 0; overflow-wrap: anywhere; }
      ol.calls { list-style: none; margin: 0; padding: 0; min-width: 0; }
      ol.nested { margin-left: 14px; border-left: 1px solid var(--vscode-tree-indentGuidesStroke, var(--vscode-widget-border)); }
      .nested-approvals { margin-left: 14px; }
      /* A long turn holds hundreds of rows (a shadow root each): off screen, the browser skips their style, layout and paint. */
      li.call-item { min-width: 0; content-visibility: auto; contain-intrinsic-size: auto 24px; }
      .notes { margin: 4px 0; display: flex; flex-direction: column; gap: 2px; }
      .note { display: flex; gap: 6px; align-items: flex-start; overflow-wrap: anywhere; min-width: 0; }
      .note.warning .codicon { color: var(--vscode-editorWarning-foreground); }
      .status-line { margin-top: 6px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
      .error-box { margin-top: 6px; display: flex; gap: 8px; align-items: flex-start; justify-content: space-between; }
      .toolbar { margin-top: 4px; }
      .context-meter { margin-top: 4px; font-size: 0.85em; display: flex; align-items: center; gap: 6px; }
      .meter-bar { appearance: none; width: 60px; height: 4px; border: 0; border-radius: 2px; background: var(--vscode-widget-border, rgba(128, 128, 128, 0.3)); }
      .meter-bar::-webkit-progress-bar { background: transparent; }
      .meter-bar::-webkit-progress-value { background: var(--vscode-progressBar-background, #0e70c0); border-radius: 2px; }
      a.file-link { cursor: pointer; text-decoration: underline; text-underline-offset: 2px; }
      .index-found { margin: 2px 0 6px; display: flex; flex-direction: column; gap: 4px; min-width: 0; }
      .definition-card { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); border-radius: 4px; padding: 4px 6px; min-width: 0;
        background: var(--vscode-textBlockQuote-background, transparent); }
      .definition-card .definition-link { display: inline; overflow-wrap: anywhere; }
      .definition-card .definition-link code { overflow-wrap: anywhere; }
      .definition-card .signature code, .definition-card .doc { display: block; overflow-wrap: anywhere; font-size: 0.92em; }
      .index-context, .index-wait { font-size: 0.9em; display: flex; gap: 4px; align-items: center; }
      .sent-back { margin: 2px 0 6px; color: var(--vscode-descriptionForeground); min-width: 0; }
      .sent-back summary { cursor: pointer; display: flex; gap: 4px; align-items: center; font-size: 0.9em; }
      .sent-back .markdown { border-left: 2px solid var(--vscode-widget-border, rgba(128, 128, 128, 0.3)); padding-left: 6px; opacity: 0.8; }
    `,
  ];

  declare turn: AgentTurnMessage;
  declare approvals: readonly ApprovalEntry[];
  /** Undefined: open while the turn runs, closed after. */
  declare workOpen: boolean | undefined;
  store!: Store;
  actions!: Actions;
  private unsubscribe?: () => void;
  private readonly answer = createAnswerRenderer();
  private readonly sentBackAnswer = createAnswerRenderer();
  /** Puts back the answer's DOM as the renderer made it, before it changes again. */
  private unlink?: () => void;
  private linkedAnswer?: string;
  /** The idle callback that will link the answer's file references. */
  private linkTask?: number;

  constructor() {
    super();
    this.approvals = NO_APPROVALS;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.select(this.store.current);
    this.unsubscribe = this.store.subscribe((state) => this.select(state));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.cancelLinking();
  }

  /** Approval cards live in the app state; only a change of this turn's re-renders it. */
  private select(state: AppState): void {
    const id = this.turn?.id;
    const mine = state.approvals.filter((a) => a.prompt.turnId === id);
    const same = mine.length === this.approvals.length && mine.every((a, i) => a === this.approvals[i]);
    if (!same) this.approvals = mine.length ? mine : NO_APPROVALS;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('turn') && (changed.get('turn') as AgentTurnMessage | undefined)?.id !== this.turn.id) this.select(this.store.current);
    this.cancelLinking(); // rescheduled after this update, on the DOM it leaves
    if (this.unlink && (this.turn.answer !== this.linkedAnswer || this.turn.status === 'streaming')) {
      this.unlink();
      this.unlink = this.linkedAnswer = undefined;
    }
  }

  /**
   * File references are linked when the browser is idle, not in the update: opening a conversation
   * with many finished turns then shows its first frame without walking every answer's text first.
   */
  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (this.turn.status === 'streaming' || this.unlink || !this.turn.answer) return;
    this.linkTask = requestIdleCallback(() => this.linkAnswer(), { timeout: 500 });
  }

  private linkAnswer(): void {
    this.linkTask = undefined;
    if (!this.isConnected || this.turn.status === 'streaming' || this.unlink || !this.turn.answer) return;
    const body = this.renderRoot.querySelector('.answer');
    if (!body) return;
    this.unlink = linkFileReferences(body);
    this.linkedAnswer = this.turn.answer;
  }

  private cancelLinking(): void {
    if (this.linkTask === undefined) return;
    cancelIdleCallback(this.linkTask);
    this.linkTask = undefined;
  }

  override render() {
    const t = this.turn;
    if (!t) return nothing;
    const streaming = t.status === 'streaming';
    const { answer, sentBack } = answerParts(t);
    return html`<div class="msg assistant" data-kind="agent-turn" data-status=${t.status}>
      <div class="head">
        ${icon(streaming ? 'loading' : 'sparkle', streaming ? 'spin' : '')}<span>CodeWiki</span>
        ${t.model ? html`<span class="muted">${t.model}</span>` : nothing}
        ${t.status === 'stopped' ? html`<span class="badge stopped">Stopped</span>` : nothing}
      </div>
      ${this.renderContext(t.context, t.mentions)}
      ${this.renderInstructions(t)}
      ${this.renderIndex(t, streaming)}
      ${this.renderWork(t, streaming)}
      ${this.renderNotes(t)}
      ${this.renderApprovals(this.approvals.filter((a) => !this.nestedApprovalParents.has(a.prompt.parentCallId ?? '')))}
      ${
        sentBack
          ? html`<details class="sent-back" ?open=${!answer && !streaming}>
            <summary>${icon('history')}<span>Sent back (the notes say why)</span></summary>
            <div class="markdown">${markdownBlocks(this.sentBackAnswer(sentBack, false))}</div>
          </details>`
          : nothing
      }
      <div class="markdown answer" @click=${this.onAnswerClick} @keydown=${this.onAnswerKey}>${markdownBlocks(this.answer(answer, streaming))}</div>
      ${this.renderEnd(t, streaming)}
      ${this.renderContextMeter(t)}
    </div>`;
  }

  private renderContext(context: AgentContextRef[] | undefined, mentions: string[] | undefined) {
    const refs = (context ?? []).map((c) =>
      c.kind === 'codebase'
        ? `#codebase (${c.files?.length ?? 0} file${c.files?.length === 1 ? '' : 's'})`
        : (c.kind === 'selection' && c.startLine ? `${c.path}:${c.startLine}-${c.endLine ?? c.startLine}` : c.path) + (c.truncated ? ' (cut)' : ''),
    );
    const names = (mentions ?? []).map((m) => `@${m.replace(/^@/, '')}`);
    if (refs.length + names.length === 0) return nothing;
    return html`<div class="context muted">${icon('file')} ${[...names, ...refs].join(' · ')}</div>`;
  }

  /** The project's instruction files the model was given, as attachments the user can open and read. */
  private renderInstructions(t: AgentTurnMessage) {
    const files = t.instructions ?? [];
    if (!files.length) return nothing;
    return html`<div class="instructions muted">${icon('book')} Instructions:
      ${files.map(
        (f, i) => html`${i ? ' · ' : ''}<a class="file-link instruction-file" role="link" tabindex="0" data-path=${f.path}
          title=${`Project instructions sent with every question (${f.tokens.toLocaleString('en-US')} tokens${f.truncated ? ', cut to fit' : ''}). Open ${f.path}`}
          @click=${() => this.actions.agentMode.openFile(f.path)} @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.actions.agentMode.openFile(f.path)}
          >${f.path}${f.truncated ? ' (cut)' : ''}</a>`,
      )}</div>`;
  }

  /**
   * What the code index found before the model said anything: a card per definition the question named
   * exactly (click to open it at its line), and one line saying what went to the model with the question.
   * While the index still builds, its progress instead.
   */
  private renderIndex(t: LiveAgentTurn, streaming: boolean) {
    const wait = streaming ? t.indexWait : undefined;
    const defs = t.definitions ?? [];
    if (!wait && !defs.length && !t.indexContext) return nothing;
    return html`<div class="index-found">
      ${
        wait
          ? html`<div class="index-wait muted" role="status">${icon('loading', 'spin')} Indexing the workspace… ${wait.totalFiles ? `${wait.indexedFiles.toLocaleString('en-US')} of ${wait.totalFiles.toLocaleString('en-US')} files` : ''}</div>`
          : nothing
      }
      ${defs.map(
        (d) => html`<div class="definition-card" data-path=${d.path} data-line=${d.line}>
          <a class="file-link definition-link" role="link" tabindex="0" title=${`Open ${d.path}:${d.line}`}
            @click=${() => this.actions.agentMode.openFile(d.path, d.line)} @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.actions.agentMode.openFile(d.path, d.line)}
            >${icon('symbol-class')}<code>${d.container ? `${d.container}.` : ''}${d.name}</code> <span class="muted">${d.declaration ? 'declared ' : ''}${d.kind}</span> — ${d.path}:${d.line}</a
          >
          <div class="signature"><code>${d.signature}</code></div>
          ${d.doc ? html`<div class="doc muted">${d.doc}</div>` : nothing}
        </div>`,
      )}
      ${
        t.indexContext
          ? html`<div class="index-context muted" title=${t.indexContext.files.join('\n')}>${icon('search')} Code index: ${t.indexContext.files.length} file${t.indexContext.files.length === 1 ? '' : 's'} sent with the question (${t.indexContext.tokens.toLocaleString('en-US')} tokens)${t.indexContext.partial ? ', from a partial index' : ''}</div>`
          : nothing
      }
    </div>`;
  }

  /**
   * A sub-agent's approval cards sit under the sub-agent's row while the block is open; these are the
   * rows that hold one this render. The others (the agent's own, and all of them when the block is
   * closed) come after the block, where they cannot be hidden.
   */
  private nestedApprovalParents = new Set<string>();

  private renderApprovals(entries: readonly ApprovalEntry[]) {
    return repeat(
      entries,
      (a) => a.prompt.approvalId,
      (a) => html`<cw-approval-card .entry=${a} .via=${this.subagentName(a)} .actions=${this.actions}></cw-approval-card>`,
    );
  }

  private subagentName(entry: ApprovalEntry): string | undefined {
    const parent = entry.prompt.parentCallId;
    if (parent === undefined) return undefined;
    return this.turn.toolCalls.find((call) => call.id === parent && call.parentCallId === undefined)?.displayName;
  }

  /** The reasoning block: live while the turn runs, one summary line after (expandable). */
  private renderWork(t: AgentTurnMessage, streaming: boolean) {
    const calls = callTree(t.toolCalls);
    const open = this.workOpen ?? streaming;
    this.nestedApprovalParents = open
      ? new Set(
          this.approvals.flatMap((a) =>
            a.prompt.parentCallId !== undefined && calls.some((n) => n.call.id === a.prompt.parentCallId) ? [a.prompt.parentCallId] : [],
          ),
        )
      : new Set();
    if (!streaming && calls.length === 0 && !t.reasoning && !t.tokens?.total) return nothing;
    const label = streaming
      ? html`<span class="label">Working… <cw-elapsed .since=${Date.parse(t.createdAt) || Date.now()}></cw-elapsed>${t.toolCalls.length ? ` · ${t.toolCalls.length} tool${t.toolCalls.length === 1 ? '' : 's'}` : ''}</span>`
      : html`<span class="label summary">${turnSummary(t)}</span>`;
    return html`<section class="work" aria-label="What the agent did" data-open=${open}>
      <button class="work-head" aria-expanded=${open} @click=${() => (this.workOpen = !open)}>
        ${icon(open ? 'chevron-down' : 'chevron-right')}${streaming ? icon('loading', 'spin') : icon('tools')}${label}
      </button>
      ${
        open
          ? html`${calls.length ? this.renderCalls(calls, 'Tool calls') : nothing}
            ${renderThinking(t.reasoning)}`
          : nothing
      }
    </section>`;
  }

  private renderCalls(nodes: CallNode[], label: string): TemplateResult {
    const topLevel = label === 'Tool calls';
    return html`<ol class="calls ${topLevel ? '' : 'nested'}" aria-label=${label}>
      ${repeat(
        nodes,
        (n) => callKey(n.call),
        (n): TemplateResult => html`<li class="call-item" data-call=${n.call.id}>
          <cw-tool-call-row .call=${n.call}></cw-tool-call-row>
          ${n.children.length ? this.renderCalls(n.children, `Calls of ${n.call.displayName}`) : nothing}
          ${
            topLevel && this.nestedApprovalParents.has(n.call.id)
              ? html`<div class="nested-approvals">${this.renderApprovals(this.approvals.filter((a) => a.prompt.parentCallId === n.call.id))}</div>`
              : nothing
          }
        </li>`,
      )}
    </ol>`;
  }

  /** Warnings and the fallback stay visible when the work block is closed. */
  private renderNotes(t: AgentTurnMessage) {
    const stopped = t.status === 'streaming' ? undefined : stopReasonText(t);
    if (!t.warnings?.length && !t.fallback && !stopped) return nothing;
    return html`<div class="notes">
      ${t.fallback ? html`<div class="note fallback" role="note">${icon('info')}<span>No tool calling on this server: the agent planned first, then answered. ${t.fallback}</span></div>` : nothing}
      ${(t.warnings ?? []).map((w) => html`<div class="note warning">${icon('warning')}<span>${w}</span></div>`)}
      ${stopped ? html`<div class="note warning stop-reason">${icon('warning')}<span>${stopped}</span></div>` : nothing}
    </div>`;
  }

  private renderEnd(t: AgentTurnMessage, streaming: boolean) {
    if (streaming) return t.answer || t.toolCalls.length ? nothing : html`<div class="muted">Thinking…</div>`;
    const { answer } = answerParts(t);
    return html`
      ${
        t.status === 'stopped'
          ? html`<div class="status-line"><span class="muted">The turn was stopped; what arrived is kept.</span>
          <button class="secondary retry" @click=${() => this.actions.retry(t.id)}>${icon('refresh')} Retry</button></div>`
          : nothing
      }
      ${
        t.status === 'error'
          ? html`<div class="error-box" role="alert"><span class="error-message">${icon('error')} ${t.error ?? 'The turn failed.'}</span>
            <button class="secondary retry" @click=${() => this.actions.retry(t.id)}>${icon('refresh')} Retry</button></div>`
          : nothing
      }
      ${
        answer
          ? html`<div class="toolbar answer-actions">
            <button class="icon" title="Copy answer" aria-label="Copy answer" data-action="copy" @click=${() => this.actions.code('copy', answer)}>${icon('copy')}</button>
            <button class="icon" title="Insert at cursor" aria-label="Insert answer at cursor" data-action="insert" @click=${() => this.actions.code('insert', answer)}>${icon('insert')}</button>
          </div>`
          : nothing
      }
    `;
  }

  /** How full the model's context is: the prompt of the turn's last model call against the server's window. */
  private renderContextMeter(t: AgentTurnMessage) {
    const fill = contextFill(t);
    if (!fill) return nothing;
    return html`<div class="context-meter muted" role="meter" aria-label="Model context used" aria-valuemin="0" aria-valuemax="100"
        aria-valuenow=${fill.percent ?? nothing} aria-valuetext=${fill.text} title="Prompt tokens of the last model call, against the server's context window">
      ${fill.percent !== undefined ? html`<progress class="meter-bar" aria-hidden="true" max="100" .value=${fill.percent}></progress>` : nothing}
      Context: ${fill.text}
    </div>`;
  }

  private readonly onAnswerClick = (event: Event) => {
    const reference = clickedReference(event);
    if (!reference) return;
    event.preventDefault();
    event.stopPropagation();
    this.actions.agentMode.openFile(reference.path, reference.line);
  };

  /** A file link has no `href`, so Enter is handled here, as a link would. */
  private readonly onAnswerKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter') this.onAnswerClick(event);
  };
}

customElements.define('cw-agent-turn', CwAgentTurn);
