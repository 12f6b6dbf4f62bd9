/**
 * The wiki page's protocol with the extension. Plain shapes with no imports, so the host can keep a
 * copy beside its zod schema of `WikiToHost` (the page's messages are untrusted input there).
 */

/** One page of `.codewiki/wiki/`; `path` is relative to that folder, e.g. `index.md`, `modules/src-core-engine.md`. */
export interface WikiPageEntry {
  path: string;
  title: string;
  /** The code it describes changed since it was written. */
  stale?: boolean;
}

/** Generation in progress: shown as "label (done/total)" with a Stop button. */
export interface WikiProgress {
  done: number;
  total: number;
  label: string;
}

/** The whole state, sent on `wiki/ready` and after every change. */
export interface WikiStateMessage {
  type: 'wiki/state';
  pages: WikiPageEntry[];
  /** The page shown, as Markdown. */
  current?: { path: string; markdown: string };
  /** Non-null while generation runs. */
  generating?: WikiProgress | null;
  /** One line, e.g. "No wiki yet: Generate Wiki builds it", or an error. */
  notice?: string;
}

export type HostToWiki = WikiStateMessage;

export type WikiToHost =
  | { type: 'wiki/ready' }
  /** A link in the page was clicked: `page` is the current page's path, `href` the link as written in the Markdown. */
  | { type: 'wiki/openLink'; page: string; href: string }
  | { type: 'wiki/generate' }
  | { type: 'wiki/stop' }
  | { type: 'wiki/showPage'; path: string };
