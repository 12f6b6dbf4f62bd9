import type { HostToWebview, WebviewToHost } from '../../src/shared/protocol';
import { AgentActions } from './agentActions';
import { AgentModeActions } from './agentModeActions';
import type { HostApi } from './hostApi';
import { HostRequests } from './hostRequests';
import { nextNoticeId } from './hostMessages';
import { helpText, parseSlashLine } from './slashCommands';
import type { Notice, Panel, Store } from './state';

export type ChatRequests = HostRequests<WebviewToHost, HostToWebview>;

export type CodeAction = 'copy' | 'insert' | 'newFile';
export type Notify = (kind: Notice['kind'], text: string) => void;

/**
 * What the user can do, as plain methods the components call. Everything that reaches the host
 * goes through here, so tests can drive the app without a DOM and assert what was posted.
 */
export class Actions {
  readonly agent: AgentActions;
  readonly agentMode: AgentModeActions;
  /** Requests that wait for the host's reply (path suggestions, Browse…, the editor's selection). */
  readonly requests: ChatRequests;
  /** What ArrowUp brings back: kept here, not in the store, because it is not UI state worth restoring. */
  private lastSent: string | undefined;

  constructor(
    private readonly host: HostApi,
    private readonly store: Store,
  ) {
    this.requests = new HostRequests((message) => host.postMessage(message));
    this.agent = new AgentActions(host, store, this.notify, this.requests);
    this.agentMode = new AgentModeActions(host, store, this.notify, this.requests);
  }

  /**
   * The composer's Enter: a slash command or a message (`agent/send` in agent mode or with chips,
   * otherwise `chat/send`). False when nothing was done (the draft stays).
   */
  submit(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed) return false;
    const slash = parseSlashLine(trimmed);
    if (slash) {
      const ran = this.runCommand(slash.name, slash.args);
      if (ran && slash.args) this.lastSent = trimmed;
      return ran;
    }
    if (this.store.current.activeId) return false; // one answer at a time: Stop comes first
    if (!this.agentMode.send(trimmed)) return false; // the previous message still waits for the editor's selection
    this.lastSent = trimmed;
    this.agentMode.draftSent();
    this.agentMode.closeFileCompletion();
    this.store.update({ draft: '', chips: [] });
    return true;
  }

  runCommand(name: string, args = ''): boolean {
    const known: Record<string, () => void> = {
      agent: () => (args ? this.agent.runCommand(args) : this.agent.openPicker()),
      new: () => this.newConversation(),
      history: () => this.showHistory(),
      help: () => this.showHelp(),
    };
    const run = known[name];
    if (!run) {
      this.notify('error', `Unknown command \`/${name}\`. Type \`/help\` to see the commands.`);
      return false;
    }
    this.store.update({ draft: '' });
    run();
    return true;
  }

  newConversation(): void {
    this.store.update({ conversationId: undefined, messages: [], activeId: undefined, panel: 'chat' });
    this.post({ type: 'conversation/new' });
  }

  showPanel(panel: Panel): void {
    this.store.update({ panel });
  }

  /** The history panel requests its list itself when it opens (also when the host shows it). */
  showHistory(): void {
    this.store.update({ panel: 'history' });
  }

  /** `/help` for the current mode, shown after the conversation (not pinned); its example names a prompt that exists. */
  showHelp(): void {
    const { notices, prompts, mode } = this.store.current;
    const runnable = prompts.filter((p) => !p.error);
    const example = runnable.find((p) => p.inputs.some((f) => f.required)) ?? runnable[0];
    this.store.update({ notices: [...notices.filter((n) => n.kind !== 'help'), { id: nextNoticeId(), kind: 'help', text: helpText(mode, example) }] });
  }

  readonly notify: Notify = (kind, text) => {
    this.store.update({ notices: [...this.store.current.notices, { id: nextNoticeId(), kind, text }] });
  };

  dismissNotice(id: string): void {
    this.store.update({ notices: this.store.current.notices.filter((n) => n.id !== id) });
  }

  /** ArrowUp in an empty input: the last thing sent from here, else the conversation's last question. */
  lastMessage(): string | undefined {
    const lastQuestion = [...this.store.current.messages].reverse().find((m) => m.kind === 'user');
    return this.lastSent ?? (lastQuestion?.kind === 'user' ? lastQuestion.text : undefined);
  }

  setDraft(draft: string): void {
    if (draft === this.store.current.draft) return;
    this.store.update({ draft });
    this.agentMode.draftChanged(draft);
  }

  stop(): void {
    this.post({ type: 'chat/stop' });
  }

  retry(messageId: string): void {
    this.post({ type: 'chat/retry', messageId });
  }

  openSettings(setting?: 'baseUrl' | 'model' | 'toolModel'): void {
    this.post(setting ? { type: 'settings/open', setting } : { type: 'settings/open' });
  }

  setApiKey(): void {
    this.post({ type: 'apiKey/set' });
  }

  startLocalModel(): void {
    this.post({ type: 'localModel/start' });
  }

  code(action: CodeAction, text: string, language?: string): void {
    if (action === 'copy') this.post({ type: 'code/copy', text });
    else if (action === 'insert') this.post({ type: 'code/insert', text });
    else this.post(language ? { type: 'code/newFile', text, language } : { type: 'code/newFile', text });
  }

  saveAnswer(text: string): void {
    this.post({ type: 'answer/save', text });
  }

  openRunLog(runId: string): void {
    this.post({ type: 'runLog/open', runId });
  }

  requestHistory(query: string): void {
    const history = this.store.current.history;
    this.store.update({ history: { ...history, query } });
    this.post({ type: 'history/request', query });
  }

  openConversation(id: string): void {
    this.post({ type: 'history/open', id });
  }

  /** Renames and deletes show at once; the host's next `history/list` confirms them. */
  renameConversation(id: string, title: string): void {
    const clean = title.trim();
    if (!clean) return;
    const history = this.store.current.history;
    this.store.update({ history: { ...history, items: history.items.map((i) => (i.id === id ? { ...i, title: clean } : i)) } });
    this.post({ type: 'history/rename', id, title: clean });
  }

  deleteConversation(id: string): void {
    const history = this.store.current.history;
    this.store.update({ history: { ...history, items: history.items.filter((i) => i.id !== id) } });
    this.post({ type: 'history/delete', id });
  }

  exportConversation(id: string): void {
    this.post({ type: 'history/export', id });
  }

  private post(message: WebviewToHost): void {
    this.host.postMessage(message);
  }
}
