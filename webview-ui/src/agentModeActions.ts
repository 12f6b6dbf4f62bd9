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

type SelectionReply = Extract<HostToWebview, { type: 'selection/current' }>;
const FILE_COMPLETION_CHANNEL = 'file-completion';

/** Agent mode: the Chat/Agent switch, sending with mentions and chips, approvals, the tool picker, file links. */
export class AgentModeActions {
  private suggestTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingSend: PendingSend | undefined;

  constructor(
    private readonly host: HostApi,
    private readonly store: Store,
    private readonly notify: Notify,
    private readonly requests: ChatRequests,
  ) {}

  /** Shown at once; the host saves it in the user settings and confirms with `chat/mode`. */
  setMode(mode: ChatMode): void {
    if (this.store.current.mode === mode) return;
    this.store.update({ mode });
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
    const { mode, tools } = this.store.current;
    const chipAttachments = chips.flatMap((chip) => (chip.kind === 'attachment' ? [chip.attachment] : []));
    const attachments = [...chipAttachments, ...(selection ? [selection] : [])].slice(0, MAX_ATTACHMENTS);
    // Without the host's answer, `#selection` in the text asks the host to read the selection itself.
    const withSelection = !selection && chips.some((chip) => chip.kind === 'editor-selection') && !SELECTION_TOKEN.test(text) ? `${text}\n#selection` : text;
    if (mode !== 'agent' && attachments.length === 0 && !SELECTION_TOKEN.test(withSelection)) return undefined;
    const known = new Set(mentionableTools(tools).map((tool) => tool.name));
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
