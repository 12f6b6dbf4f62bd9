import type { ChatMessage, ConversationSummary, HostStatus, PromptSummary } from '../../src/shared/protocol';
import { type AgentModeState, emptyAgentModeState } from './agentModeState';

export type Panel = 'chat' | 'history' | 'picker' | 'form' | 'tools';
/** What a form control holds before validation: text of any field, or a checkbox's state. */
export type FormValue = string | boolean;

export interface FormState {
  promptId: string;
  values: Record<string, FormValue>;
  /** Shown only after the user tried to run, or left a field they changed: a form never opens in red. */
  errors: Record<string, string>;
  /** Fields the user changed: leaving one of them checks it. */
  touched?: string[];
  suggestions?: { field: string; items: string[] };
}

export interface Notice {
  id: string;
  kind: 'help' | 'error' | 'info';
  /** Markdown, rendered like an answer. */
  text: string;
}

export interface HistoryState {
  query: string;
  items: ConversationSummary[];
  loaded: boolean;
}

export interface AppState extends AgentModeState {
  /** False until the host answered `webview/ready` with `state/init`. */
  initialized: boolean;
  status?: HostStatus;
  prompts: PromptSummary[];
  conversationId?: string;
  messages: ChatMessage[];
  /** The assistant message, agent run or agent turn being streamed; drives the Stop button. */
  activeId?: string;
  panel: Panel;
  pickerQuery: string;
  form?: FormState;
  history: HistoryState;
  notices: Notice[];
  draft: string;
  /** The inputs each prompt last ran with from this view: its form opens with them. */
  lastInputs: Record<string, Record<string, FormValue>>;
}

export function emptyState(): AppState {
  return {
    ...emptyAgentModeState(),
    initialized: false,
    prompts: [],
    messages: [],
    panel: 'chat',
    pickerQuery: '',
    history: { query: '', items: [], loaded: false },
    notices: [],
    draft: '',
    lastInputs: {},
  };
}

type Listener = (state: AppState) => void;
type MessageWatcher = (message: ChatMessage) => void;

/**
 * The app's single source of truth. Two channels keep streaming cheap: `update` is for structural
 * changes (a message added, a panel opened) and re-renders the app; `patchMessage` changes one
 * message's content and notifies only that message's watcher, so a chunk re-renders one component.
 */
export class Store {
  private state: AppState;
  private readonly listeners = new Set<Listener>();
  private readonly watchers = new Map<string, Set<MessageWatcher>>();

  constructor(initial: Partial<AppState> = {}) {
    this.state = { ...emptyState(), ...initial };
  }

  get current(): AppState {
    return this.state;
  }

  update(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener(this.state);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  watchMessage(id: string, watcher: MessageWatcher): () => void {
    let set = this.watchers.get(id);
    if (!set) this.watchers.set(id, (set = new Set()));
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (set.size === 0) this.watchers.delete(id);
    };
  }

  findMessage(id: string): ChatMessage | undefined {
    const index = this.indexOf(id);
    return index < 0 ? undefined : this.state.messages[index];
  }

  /**
   * Replaces one message with `change(message)`. The array is updated in place on purpose: the list
   * keeps its identity and does not re-render; the message's own component hears of the change.
   */
  patchMessage(id: string, change: (message: ChatMessage) => ChatMessage): void {
    const index = this.indexOf(id);
    if (index < 0) return;
    const next = change(this.state.messages[index]);
    this.state.messages[index] = next;
    for (const watcher of [...(this.watchers.get(id) ?? [])]) watcher(next);
  }

  /** Searches from the end: the message being streamed is almost always the last one. */
  private indexOf(id: string): number {
    const messages = this.state.messages;
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i].id === id) return i;
    return -1;
  }
}
