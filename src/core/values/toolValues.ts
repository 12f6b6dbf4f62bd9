/**
 * Structured values that tools return and templates render. They are plain JSON (tagged with
 * `kind`) rather than classes so they survive the run log, nested chains and the webview
 * protocol unchanged; `renderValue` turns them into prompt text.
 */

export interface FileSummary {
  /** Workspace-relative, forward slashes. */
  path: string;
  size: number;
  lines: number;
  language: string;
  /** Leading doc comment plus top-level declarations, or the first lines. */
  summary: string;
  /** Set when `lines` was extrapolated from the start of a large file instead of counted. */
  linesEstimated?: boolean;
}

export interface FileSummaries {
  kind: 'file-summaries';
  /** The folder that was summarised, workspace-relative ('.' for the root). */
  root: string;
  files: FileSummary[];
  /** Text files found before the cap applied. */
  totalFiles: number;
  truncated: boolean;
}

export interface FileContent {
  path: string;
  language: string;
  content: string;
  /** Set when the content was cut (size cap or context budget); the marker is already in `content`. */
  truncated?: boolean;
  /** Set when only a line range was read (1-based, inclusive). */
  startLine?: number;
  endLine?: number;
}

export interface FileBundle {
  kind: 'file-bundle';
  files: FileContent[];
  /** Paths that were asked for but could not be read, with the reason. Reported, not fatal. */
  missing: Array<{ path: string; reason: string }>;
}

export interface FileTreeEntry {
  /** Workspace-relative, forward slashes. */
  path: string;
  type: 'file' | 'dir';
  /** Bytes, for files. */
  size?: number;
  /** 1 for the listed folder's children. */
  depth: number;
}

export interface FileTree {
  kind: 'file-tree';
  /** The folder that was listed, workspace-relative ('.' for the root). */
  root: string;
  /** Parents before their children, siblings in path order. */
  entries: FileTreeEntry[];
  truncated: boolean;
}

export interface SearchMatch {
  path: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units, of the first match on the line. */
  column: number;
  /** The matching line, shortened around the match when very long. */
  text: string;
}

export interface SearchResults {
  kind: 'search-results';
  query: string;
  matches: SearchMatch[];
  filesSearched: number;
  /** More matches exist than were returned, or some files were only partly searched. */
  truncated: boolean;
}

/**
 * A value that carries its own prompt rendering: the codebase index's results (symbol matches, ranked
 * code, the repo map). Templates and the agent print `text`; a chain's later steps can still read the
 * other fields (the ranked paths, say).
 */
export interface SelfRenderedValue {
  kind: SelfRenderedKind;
  text: string;
}

const SELF_RENDERED = ['symbol-matches', 'code-search', 'repo-map', 'wiki-plan', 'wiki-context', 'wiki-saved', 'wiki-page'] as const;
export type SelfRenderedKind = (typeof SELF_RENDERED)[number];
const SELF_RENDERED_KINDS = new Set<string>(SELF_RENDERED);

export function isSelfRendered(value: unknown): value is SelfRenderedValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    SELF_RENDERED_KINDS.has((value as { kind?: string }).kind ?? '') &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}

export function isFileSummaries(value: unknown): value is FileSummaries {
  return isKind(value, 'file-summaries');
}

export function isFileBundle(value: unknown): value is FileBundle {
  return isKind(value, 'file-bundle');
}

export function isFileTree(value: unknown): value is FileTree {
  return isKind(value, 'file-tree');
}

export function isSearchResults(value: unknown): value is SearchResults {
  return isKind(value, 'search-results');
}

function isKind(value: unknown, kind: string): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind;
}
