import type { ApprovalAnswer, ApprovalPrompt, ChatMode, ContextAttachment, ToolsState } from '../../src/shared/protocol';

/** An approval card: what the host asked, and how far the answer got. */
export interface ApprovalEntry {
  prompt: ApprovalPrompt;
  /** Answered here; the card waits for the host's `agent/approvalSettled`. */
  answered?: ApprovalAnswer;
  /** The host's word that the approval is over: the card shows the outcome instead of buttons. */
  settled?: ApprovalAnswer | 'cancelled';
}

/**
 * A chip in the composer. `editor-selection` is `#selection`: the webview cannot see the editor,
 * so the host reads the selection when the message is sent.
 */
export type ComposerChip = { kind: 'attachment'; attachment: ContextAttachment } | { kind: 'editor-selection' };

/** The `#file:` completion while its popup is open: the host's answer once it came. */
export interface FileCompletion {
  items?: string[];
}

/** The agent-mode part of the app state (merged into `AppState`). */
export interface AgentModeState {
  /** How a message is answered, as the switch shows it: `chat` until the host says (`chat/mode`). */
  mode: ChatMode;
  /**
   * Whether the host has said (or the user has chosen) the mode. Until then a question goes without one and the
   * host answers it by the user's setting: a question typed while the view still opens is not a chat by accident.
   */
  modeKnown?: boolean;
  /** The tool picker's state, from `tools/list`. */
  tools?: ToolsState;
  approvals: ApprovalEntry[];
  chips: ComposerChip[];
  fileCompletion?: FileCompletion;
}

export function emptyAgentModeState(): AgentModeState {
  return { mode: 'chat', approvals: [], chips: [] };
}

export function chipKey(chip: ComposerChip): string {
  if (chip.kind === 'editor-selection') return '#selection';
  const a = chip.attachment;
  if (a.kind === 'codebase') return '#codebase';
  return a.kind === 'file' ? `file:${a.path}` : `selection:${a.path}:${a.startLine}-${a.endLine}`;
}

/** What a chip says: `a.ts`, `a.ts:3-9`, `Selection`. */
export function chipLabel(chip: ComposerChip): string {
  if (chip.kind === 'editor-selection') return 'Editor selection';
  const a = chip.attachment;
  if (a.kind === 'codebase') return 'Codebase';
  const name = a.path.split('/').pop() || a.path;
  if (a.kind === 'file') return name;
  return a.startLine === a.endLine ? `${name}:${a.startLine}` : `${name}:${a.startLine}-${a.endLine}`;
}

/** The agent-callable tools that are on: what `@` offers. */
export function mentionableTools(tools: ToolsState | undefined): ToolsState['tools'] {
  if (!tools || !tools.enabled) return [];
  return tools.tools.filter((t) => t.agentCallable && t.enabled);
}
