import type { ContextAttachment } from '../../shared/protocol';

/** What goes with an agent-mode (or chat-mode) question besides its text. */
export interface SendOptions {
  /** Workspace-relative path of the file open in the editor; the agent is told its name. */
  openFile?: string;
  /** The editor's selection, when the question says `#selection`. */
  selection?: { path: string; startLine: number; endLine: number };
  /** Chips: files and selections whose content goes with the question. */
  attachments?: ContextAttachment[];
  /** `@tool` mentions (agent mode only): each is forced on one of the first model calls. */
  mentions?: string[];
}
