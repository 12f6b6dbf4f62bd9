import type { ComposerChip } from './agentModeState';

/**
 * The word being typed at the caret when it asks for a completion:
 * `@que` (a tool mention), `#fi` (`#file:` or `#selection`), `#file:src/a` (a workspace path).
 */
export interface ComposerToken {
  kind: 'mention' | 'hash' | 'file';
  /** Where the word starts (its `@` or `#`) and ends (the caret may be inside it). */
  start: number;
  end: number;
  /** What follows `@`, `#` or `#file:`. */
  query: string;
}

export function tokenAt(text: string, caret: number): ComposerToken | undefined {
  const match = /(?:^|\s)([@#]\S*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  const word = match[1];
  const start = caret - word.length;
  const end = caret + (/^\S*/.exec(text.slice(caret))?.[0].length ?? 0);
  if (word.startsWith('@')) return /^@[\w.-]*$/.test(word) ? { kind: 'mention', start, end, query: word.slice(1) } : undefined;
  if (word.startsWith('#file:')) return { kind: 'file', start, end, query: word.slice('#file:'.length) };
  return /^#[a-z]*$/i.test(word) ? { kind: 'hash', start, end, query: word.slice(1) } : undefined;
}

/** Identifies a token while it is typed, so a popup closed with Esc stays closed for it (and only for it). */
export function tokenKey(token: ComposerToken): string {
  return `${token.kind === 'file' ? 'hash' : token.kind}@${token.start}`;
}

/** Replaces the token's word; the caret goes after the replacement. */
export function replaceToken(text: string, token: ComposerToken, replacement: string): { text: string; caret: number } {
  return { text: text.slice(0, token.start) + replacement + text.slice(token.end), caret: token.start + replacement.length };
}

/** What `#` offers before a colon. */
export const HASH_ITEMS = [
  { id: 'file:', label: '#file:', detail: 'Attach a workspace file' },
  { id: 'selection', label: '#selection', detail: "Attach the editor's selection" },
  { id: 'codebase', label: '#codebase', detail: "Attach the code index's best matches for the question" },
] as const;

export function hashItems(query: string): ReadonlyArray<(typeof HASH_ITEMS)[number]> {
  const q = query.toLowerCase();
  return HASH_ITEMS.filter((item) => item.id.startsWith(q));
}

/**
 * A `#selection` or `#file:path` the user finished typing (a space or line break after it) turns
 * into a chip, as if picked from the popup. Returns the text without the word.
 */
export function typedChip(text: string, caret: number): { chip: ComposerChip; text: string; caret: number } | undefined {
  const match = /(^|\s)(#selection|#codebase|#file:(\S+))(\s)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  const start = match.index + match[1].length;
  const chip: ComposerChip = match[3]
    ? { kind: 'attachment', attachment: { kind: 'file', path: cleanPath(match[3]) } }
    : match[2] === '#codebase'
      ? { kind: 'attachment', attachment: { kind: 'codebase' } }
      : { kind: 'editor-selection' };
  if (chip.kind === 'attachment' && chip.attachment.kind === 'file' && !chip.attachment.path) return undefined;
  const rest = text.slice(caret);
  const joined = text.slice(0, start) + rest.replace(/^\s*/, '');
  return { chip, text: joined, caret: start };
}

/** `./src/a.ts,` as typed → `src/a.ts`. */
export function cleanPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^\.\//, '')
    .replace(/[.,;:!?)]+$/, '');
}

/** The `@tool` mentions in the text that name one of `known`, each once, in order. */
export function mentionsIn(text: string, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@([\w.-]+)/g)) {
    const name = match[1];
    if (known.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

/** Tools whose name or display name starts with the query first, then those that contain it. */
export function matchTools<T extends { name: string; displayName: string }>(tools: readonly T[], query: string): T[] {
  const q = query.toLowerCase();
  const starts = tools.filter((t) => t.name.toLowerCase().startsWith(q) || t.displayName.toLowerCase().startsWith(q));
  const contains = tools.filter((t) => !starts.includes(t) && (t.name.toLowerCase().includes(q) || t.displayName.toLowerCase().includes(q)));
  return [...starts, ...contains];
}
