/**
 * The marked parts of a wiki page. The first line carries the page's metadata as JSON in an HTML comment
 * (hidden on GitHub and in the wiki view); the prose and the notes sit between markers, so a page can be
 * rebuilt around them: prose is kept until its module changes, notes are kept always.
 */

export const NOTES_START = '<!-- codewiki:notes:start -->';
export const NOTES_END = '<!-- codewiki:notes:end -->';
export const PROSE_START = '<!-- codewiki:prose:start -->';
export const PROSE_END = '<!-- codewiki:prose:end -->';
const META = /^<!-- codewiki:page (\{.*\}) -->$/;

export const DEFAULT_NOTES = '_Notes written between these markers are kept when the page is regenerated._';

/** Who wrote a page's prose, for which content. */
export interface ProseMeta {
  /** The module's sources hash the prose was written from. */
  sources: string;
  model: string;
  /** The commit the workspace was at, or `unknown` outside git. */
  commit: string;
  /** Claims the trust check removed. */
  removed: number;
}

export interface PageMeta {
  version: 1;
  /** The module id, or `.overview` for the front page. */
  module: string;
  /** Its folders when it has more than its own (small folders merged into it), so a file finds its module. */
  folders?: string[];
  /** The sources hash of what the page's structure was rendered from. */
  sources: string;
  prose?: ProseMeta;
}

export interface PageParts {
  meta?: PageMeta;
  /** The text between the prose markers, trimmed; undefined when the page has none. */
  prose?: string;
  /** The text between the notes markers, as the user left it. */
  notes?: string;
}

export function metaLine(meta: PageMeta): string {
  // `<` and `>` escaped, so no value can close the comment early.
  return `<!-- codewiki:page ${JSON.stringify(meta).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')} -->`;
}

export function readPageParts(text: string): PageParts {
  const parts: PageParts = {};
  const first = text.split('\n', 1)[0]!.trim();
  const match = META.exec(first);
  if (match) {
    try {
      const meta = JSON.parse(match[1]!) as PageMeta;
      if (meta && meta.version === 1 && typeof meta.module === 'string' && typeof meta.sources === 'string') parts.meta = meta;
    } catch {
      // A damaged header makes the page stale; it is then rewritten, keeping its notes.
    }
  }
  const prose = between(text, PROSE_START, PROSE_END);
  if (prose !== undefined) parts.prose = prose.trim();
  // The notes section is the page's last: its start is the last marker that starts a line. Text from the code on
  // the page (a signature, a folder name in inline code) can spell a marker, but never at the start of a line.
  const notesFrom = lastLineStart(text, NOTES_START);
  if (notesFrom >= 0) {
    const to = text.indexOf(NOTES_END, notesFrom + NOTES_START.length);
    if (to >= 0) parts.notes = text.slice(notesFrom + NOTES_START.length, to);
  }
  return parts;
}

/** The notes section as it goes on a page: the user's text, or the default invitation. */
export function notesSection(notes: string | undefined): string {
  const body = notes === undefined || notes.trim() === '' ? `\n${DEFAULT_NOTES}\n` : notes;
  return `${NOTES_START}${body}${NOTES_END}`;
}

/**
 * The text between a marker that starts a line and the next end marker that starts a line. CodeWiki writes its
 * prose markers on lines of their own; a marker inside a line is text (code on the page spelling one) and never
 * moves the section.
 */
function between(text: string, start: string, end: string): string | undefined {
  const from = firstLineStart(text, start, 0);
  if (from < 0) return undefined;
  const to = firstLineStart(text, end, from + start.length);
  if (to < 0) return undefined;
  return text.slice(from + start.length, to);
}

/** Whether the marker starts a line of the text (where CodeWiki writes its markers). */
export function hasMarkerLine(text: string, marker: string): boolean {
  return firstLineStart(text, marker, 0) >= 0;
}

function firstLineStart(text: string, marker: string, from: number): number {
  for (let at = text.indexOf(marker, from); at >= 0; at = text.indexOf(marker, at + 1)) if (at === 0 || text[at - 1] === '\n') return at;
  return -1;
}

function lastLineStart(text: string, marker: string): number {
  for (let at = text.lastIndexOf(marker); at >= 0; at = at === 0 ? -1 : text.lastIndexOf(marker, at - 1)) if (at === 0 || text[at - 1] === '\n') return at;
  return -1;
}

/** The page with new prose between its markers and the prose's metadata in its header. */
export function withProse(text: string, prose: string, meta: PageMeta): string {
  const from = firstLineStart(text, PROSE_START, 0);
  const to = firstLineStart(text, PROSE_END, from + PROSE_START.length);
  if (from < 0 || to < 0) throw new Error('the page has no prose section');
  const body = `${text.slice(0, from + PROSE_START.length)}\n${prose}\n${text.slice(to)}`;
  return `${metaLine(meta)}${body.slice(body.indexOf('\n'))}`;
}
