import type { ApprovalAnswer, ChatMode, HostToWebview, SelectionAttachment, ToolsState, WebviewToHost } from '../../src/shared/protocol';
import type { ChatRequests, Notify } from './actions';
import { addChip } from './agentModeMessages';
import { chipKey, type ComposerChip, mentionableTools } from './agentModeState';
import { SUGGEST_DELAY_MS } from './agentActions';
import { mentionsIn } from './composerTokens';
import type { HostApi } from './hostApi';
import type { Store } from './state';

/** The protocol's caps on one `agent/send`. */
const MAX_MENTIONS = 20;
const MAX_ATTACHMENTS = 20;
const SELECTION_TOKEN = /(^|\s)#selection\b/;
/** How long a send waits for the host's `selection/current` before leaving `#selection` to the host. */
export const SELECTION_WAIT_MS = 2000;

/** A message held back until the host says what `#selection` is. */
interface PendingSend {
  text: string;
  chips: ComposerChip[];
}

/**
 * How long the composer must rest before its question goes to the host as a draft to compute ahead
 * (`agent/draft`): long enough that a typist's next key comes first, short enough that reading a question
 * over before Enter covers most of the 5–8 s the local model needs for it.
 */
export const DRAFT_DELAY_MS = 600;
/** Shorter drafts are not questions yet. */
const MIN_DRAFT_CHARS = 8;

type SelectionReply = Extract<HostToWebview, { type: 'selection/current' }>;
const FILE_COMPLETION_CHANNEL = 'file-completion';

/** Agent mode: the Chat/Agent switch, sending with mentions and chips, approvals, the tool picker, file links. */
export class AgentModeActions {
  private suggestTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingSend: PendingSend | undefined;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last draft posted: the same one (a key typed and deleted) is not posted again while nothing else changed. */
  private lastDraft: string | undefined;

  constructor(
    private readonly host: HostApi,
    private readonly store: Store,
    private readonly notify: Notify,
    private readonly requests: ChatRequests,
  ) {
    // The host drops a draft that comes while an answer runs, when the conversation or the mode changes (and its
    // settings' warm-up stops it): then the composer's question, unchanged, is posted again once things settle.
    // A chip goes with the question, whoever added it (the composer, or the host's Add Selection to Chat): the draft
    // changes with it.
    let seen = { busy: Boolean(store.current.activeId), mode: store.current.mode, conversation: store.current.conversationId, chips: store.current.chips };
    store.subscribe((state) => {
      const now = { busy: Boolean(state.activeId), mode: state.mode, conversation: state.conversationId, chips: state.chips };
      const settled = (seen.busy && !now.busy) || now.mode !== seen.mode || now.conversation !== seen.conversation;
      const chipsChanged = now.chips !== seen.chips;
      seen = now;
      if (settled) this.lastDraft = undefined;
      if ((settled || chipsChanged) && state.draft.trim()) this.draftChanged(state.draft);
    });
  }

  /** Shown at once; the host saves it in the user settings and confirms with `chat/mode`. */
  setMode(mode: ChatMode): void {
    if (this.store.current.mode === mode && this.store.current.modeKnown) return;
    this.store.update({ mode, modeKnown: true });
    this.post({ type: 'chat/setMode', mode });
  }

  /**
   * Sends the composer's message (the chips go with it). With `#selection` (typed, or its chip) the
   * message waits for the host's answer to `selection/request`, so it carries the lines selected in
   * the editor right now; with none selected it is not sent and comes back to the composer. False
   * while an earlier message still waits.
   */
  send(text: string): boolean {
    if (this.pendingSend) return false;
    const { chips } = this.store.current;
    if (!SELECTION_TOKEN.test(text) && !chips.some((chip) => chip.kind === 'editor-selection')) {
      this.post(this.sendMessage(text, chips) ?? { type: 'chat/send', text });
      return true;
    }
    this.pendingSend = { text, chips };
    // No answer in time (a host without `selection/request`): the message goes as before and the host reads the selection itself.
    void this.requests.request<SelectionReply>({ type: 'selection/request' }, { timeoutMs: SELECTION_WAIT_MS }).then((reply) => this.finishSend(reply));
    return true;
  }

  /** The composer's text changed: once it rests for DRAFT_DELAY_MS, an agent-mode question goes to the host as a draft. */
  draftChanged(text: string): void {
    clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => this.postDraft(text.trim()), DRAFT_DELAY_MS);
  }

  /** The question was sent (or the composer cleared): no draft of it is posted any more, and the next may repeat its text. */
  draftSent(): void {
    clearTimeout(this.draftTimer);
    this.lastDraft = undefined;
  }

  private postDraft(text: string): void {
    const { activeId, chips } = this.store.current;
    // Not a question for agent mode, or one that cannot be computed ahead: a command, an answer still running,
    // a send waiting for the selection, or the editor's selection (read at send time only).
    if (text.length < MIN_DRAFT_CHARS || text.startsWith('/') || activeId || this.pendingSend || SELECTION_TOKEN.test(text)) return;
    if (chips.some((chip) => chip.kind === 'editor-selection')) return;
    const message = this.sendMessage(text, chips);
    if (!message || message.mode !== 'agent') return;
    const key = JSON.stringify([message.text, message.mentions, message.attachments]);
    if (key === this.lastDraft) return;
    this.lastDraft = key;
    this.post({ type: 'agent/draft', text: message.text, mentions: message.mentions, attachments: message.attachments });
  }

  /**
   * The message to send for `text`: `agent/send` in agent mode, with chips or with a selection, else
   * undefined (a plain `chat/send`). Mentions are the `@tool` words that name a tool the agent may use.
   * `selection` is the editor's selection as the host reported it for `#selection`.
   */
  sendMessage(
    text: string,
    chips: readonly ComposerChip[] = this.store.current.chips,
    selection?: SelectionAttachment,
  ): Extract<WebviewToHost, { type: 'agent/send' }> | undefined {
    const { mode, modeKnown, tools } = this.store.current;
    const chipAttachments = chips.flatMap((chip) => (chip.kind === 'attachment' ? [chip.attachment] : []));
    const attachments = [...chipAttachments, ...(selection ? [selection] : [])].slice(0, MAX_ATTACHMENTS);
    // Without the host's answer, `#selection` in the text asks the host to read the selection itself.
    const withSelection = !selection && chips.some((chip) => chip.kind === 'editor-selection') && !SELECTION_TOKEN.test(text) ? `${text}\n#selection` : text;
    const known = new Set(mentionableTools(tools).map((tool) => tool.name));
    // The mode not known yet: no mode, so the host answers by the user's setting (codewiki.chat.mode).
    if (!modeKnown) return { type: 'agent/send', text: withSelection, mentions: mentionsIn(text, known).slice(0, MAX_MENTIONS), attachments };
    if (mode !== 'agent' && attachments.length === 0 && !SELECTION_TOKEN.test(withSelection)) return undefined;
    const mentions = mode === 'agent' ? mentionsIn(text, known).slice(0, MAX_MENTIONS) : [];
    return { type: 'agent/send', text: withSelection, mode, mentions, attachments };
  }

  private finishSend(reply: SelectionReply | undefined): void {
    const pending = this.pendingSend;
    if (!pending) return;
    this.pendingSend = undefined;
    if (reply && !reply.selection) {
      // Nothing was sent: the question comes back to the composer (unless a new one was started), with the reason.
      if (!this.store.current.draft.trim()) this.store.update({ draft: pending.text, chips: pending.chips });
      this.notify('error', reply.problem ?? '#selection: select some lines in a workspace file first.');
      return;
    }
    this.post(this.sendMessage(pending.text, pending.chips, reply?.selection) ?? { type: 'chat/send', text: pending.text });
  }

  addChip(chip: ComposerChip): void {
    addChip(this.store, chip);
  }

  removeChip(key: string): void {
    this.store.update({ chips: this.store.current.chips.filter((chip) => chipKey(chip) !== key) });
  }

  /** `#file:` completion: the same `path/suggest` request the /agent form's path fields use. */
  suggestFiles(prefix: string, delayMs = SUGGEST_DELAY_MS): void {
    clearTimeout(this.suggestTimer);
    this.suggestTimer = setTimeout(async () => {
      this.store.update({ fileCompletion: {} });
      const reply = await this.requests.request<Extract<HostToWebview, { type: 'path/suggestions' }>>(
        { type: 'path/suggest', prefix },
        { channel: FILE_COMPLETION_CHANNEL },
      );
      if (reply && this.store.current.fileCompletion) this.store.update({ fileCompletion: { items: reply.items } });
    }, delayMs);
  }

  closeFileCompletion(): void {
    clearTimeout(this.suggestTimer);
    this.requests.cancel(FILE_COMPLETION_CHANNEL);
    if (this.store.current.fileCompletion) this.store.update({ fileCompletion: undefined });
  }

  /** The card shows the answer as sent until the host settles the approval. A reason goes only with a denial. */
  approve(approvalId: string, decision: ApprovalAnswer, reason?: string): void {
    const entry = this.store.current.approvals.find((a) => a.prompt.approvalId === approvalId);
    if (!entry || entry.answered || entry.settled) return;
    this.store.update({ approvals: this.store.current.approvals.map((a) => (a === entry ? { ...a, answered: decision } : a)) });
    const why = decision === 'deny' ? reason?.trim() : undefined;
    this.post(why ? { type: 'agent/approve', approvalId, decision, reason: why.slice(0, 2000) } : { type: 'agent/approve', approvalId, decision });
  }

  openDiff(approvalId: string): void {
    this.post({ type: 'editor/diff', approvalId });
  }

  /** A `path:line` link in an answer; the host opens it only inside the workspace. */
  openFile(path: string, line?: number): void {
    this.post(line ? { type: 'file/open', path, line } : { type: 'file/open', path });
  }

  showTools(): void {
    this.store.update({ panel: 'tools' });
  }

  requestTools(): void {
    this.post({ type: 'tools/request' });
  }

  /** CodeWiki: Tool Tester, in an editor tab: what the model is told, calls tried by hand, a probe of the server. */
  openToolTester(): void {
    this.post({ type: 'tools/openTester' });
  }

  /** Switches show the change at once; the host writes the user setting and sends `tools/list` again. */
  toggleTool(name: string, enabled: boolean): void {
    this.updateTools((tools) => ({ tools: tools.tools.map((tool) => (tool.name === name && tool.agentCallable ? { ...tool, enabled } : tool)) }));
    this.post({ type: 'tools/toggle', name, enabled });
  }

  setToolsEnabled(enabled: boolean): void {
    this.updateTools(() => ({ enabled }));
    this.post({ type: 'tools/setEnabled', enabled });
  }

  setEnableNewTools(enabled: boolean): void {
    this.updateTools(() => ({ enableNewTools: enabled }));
    this.post({ type: 'tools/setEnableNewTools', enabled });
  }

  private updateTools(change: (tools: ToolsState) => Partial<ToolsState>): void {
    const tools = this.store.current.tools;
    if (tools) this.store.update({ tools: { ...tools, ...change(tools) } });
  }

  private post(message: WebviewToHost): void {
    this.host.postMessage(message);
  }
}
