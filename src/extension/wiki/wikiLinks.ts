import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { relativeInside, type Workspace } from '../../core/workspace/workspace';

/** Where a link in a wiki page leads: another page of the wiki, or a file (or folder) of the workspace. */
export type WikiLinkTarget = { kind: 'page'; path: string } | { kind: 'file'; absolute: string; directory: boolean; lines?: { start: number; end: number } };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Browsers drop these inside a URL (`java\tscript:`); a link that holds any is not one a page would write. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this matches
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `#L12` or `#L12-L20` (GitHub's form), the only fragments that mean something in a file. */
const LINE_FRAGMENT = /^L(\d{1,7})(?:-L?(\d{1,7}))?$/;

/**
 * Resolves a link exactly as the page wrote it (`href`, relative to the page `page` in `wikiDir`).
 * A `.md` link inside the wiki folder is a page; any other relative link must resolve, through
 * symlinks, into a workspace folder and not be a secret file (the workspace's own check, security.md
 * #7). Everything else is refused with undefined: schemes (http, javascript:, command:…), absolute
 * paths, links that leave the workspace, and pages outside the wiki folder.
 */
export async function resolveWikiLink(link: { page: string; href: string }, wikiDir: string, workspace: Workspace): Promise<WikiLinkTarget | undefined> {
  const href = link.href.trim();
  if (CONTROL.test(href) || SCHEME.test(href) || href.startsWith('/') || href.startsWith('\\')) return undefined;
  const hash = href.indexOf('#');
  const fragment = hash < 0 ? '' : href.slice(hash + 1);
  const path = decoded((hash < 0 ? href : href.slice(0, hash)).split('?')[0]!);
  // A bare `#section` link, or one whose decoded form is absolute or holds a NUL (`%2Fetc`, `%00`).
  if (!path || CONTROL.test(path) || isAbsolute(path)) return undefined;
  const page = wikiPageFile(wikiDir, link.page);
  if (!page) return undefined;
  const target = resolve(dirname(page), path);
  const inWiki = relativeInside(wikiDir, target);
  if (inWiki !== undefined && inWiki.endsWith('.md')) return { kind: 'page', path: inWiki };
  let absolute: string;
  try {
    absolute = (await workspace.resolve(target)).absolute;
  } catch {
    return undefined;
  }
  const info = await stat(absolute).catch(() => undefined);
  if (!info) return undefined;
  const directory = info.isDirectory();
  const lines = directory ? undefined : lineRange(fragment);
  return { kind: 'file', absolute, directory, ...(lines ? { lines } : {}) };
}

/** The absolute file of a page path the page sent (`modules/x.md`), or undefined when it is not a page of the wiki folder. */
export function wikiPageFile(wikiDir: string, page: string): string | undefined {
  if (CONTROL.test(page) || isAbsolute(page) || !page.endsWith('.md')) return undefined;
  const absolute = resolve(wikiDir, page);
  const inside = relativeInside(wikiDir, absolute);
  return inside === undefined || inside === '.' ? undefined : absolute;
}

function lineRange(fragment: string): { start: number; end: number } | undefined {
  const match = LINE_FRAGMENT.exec(fragment);
  if (!match) return undefined;
  const start = Math.max(1, Number(match[1]));
  const end = Math.max(start, Number(match[2] ?? match[1]));
  return { start, end };
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
