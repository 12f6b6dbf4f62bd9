import type { ChatMode, ToolsState } from '../../src/shared/protocol';
import { type FileCompletion, mentionableTools } from './agentModeState';
import { type ComposerToken, hashItems, matchTools, tokenAt, tokenKey } from './composerTokens';
import { matchCommands, slashQuery } from './slashCommands';

export interface PopupItem {
  id: string;
  label: string;
  detail?: string;
  /** A tool's kind, shown as a badge. */
  kind?: string;
}

/** The composer's one popup: `/` commands, `@` tools, `#` attachments, or `#file:` paths. */
export interface ComposerPopup {
  kind: 'command' | 'mention' | 'hash' | 'file';
  label: string;
  items: PopupItem[];
  /** The word the pick replaces (every kind but commands). */
  token?: ComposerToken;
}

export interface PopupInput {
  draft: string;
  caret: number;
  mode: ChatMode;
  tools?: ToolsState;
  fileCompletion?: FileCompletion;
  /** The draft the `/` popup was closed for with Esc. */
  dismissedFor?: string;
  /** The word (`tokenKey`) the other popups were closed for with Esc. */
  dismissedToken?: string;
}

/** What the popup offers for the text and caret, or undefined when it is closed. */
export function composerPopup(input: PopupInput): ComposerPopup | undefined {
  const slash = slashQuery(input.draft);
  if (slash !== undefined) {
    if (input.draft === input.dismissedFor) return undefined;
    return withItems({
      kind: 'command',
      label: 'Commands',
      items: matchCommands(slash).map((c) => ({ id: c.name, label: `/${c.name}`, detail: c.description })),
    });
  }
  const token = tokenAt(input.draft, input.caret);
  if (!token || tokenKey(token) === input.dismissedToken) return undefined;
  switch (token.kind) {
    case 'mention': {
      // Mentions force a tool on the agent: there is nothing to mention in chat mode.
      if (input.mode !== 'agent') return undefined;
      const tools = matchTools(mentionableTools(input.tools), token.query);
      return withItems({
        kind: 'mention',
        label: 'Tools',
        token,
        items: tools.map((t) => ({ id: t.name, label: `@${t.name}`, detail: t.displayName, kind: t.kind })),
      });
    }
    case 'hash':
      return withItems({ kind: 'hash', label: 'Attach', token, items: hashItems(token.query).map((h) => ({ id: h.id, label: h.label, detail: h.detail })) });
    case 'file':
      return withItems({
        kind: 'file',
        label: 'Workspace files',
        token,
        items: (input.fileCompletion?.items ?? []).map((path) => ({ id: path, label: path })),
      });
  }
}

function withItems(popup: ComposerPopup): ComposerPopup | undefined {
  return popup.items.length ? popup : undefined;
}
