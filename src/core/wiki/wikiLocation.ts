import { isAbsolute, join, relative, resolve } from 'node:path';
import { DEFAULT_WIKI_FOLDER } from '../codebaseIndex/build/notIndexed';

export { DEFAULT_WIKI_FOLDER };

/**
 * The wiki folder, absolute. A folder from settings (`codewiki.wiki.folder`, which a repository may set)
 * must stay inside the first workspace folder, so a cloned repository cannot make CodeWiki write elsewhere;
 * a folder the user types on the command line (`--out`) may be anywhere.
 */
export function wikiFolder(root: string, setting?: string, options: { anywhere?: boolean } = {}): string {
  const given = setting?.trim() || DEFAULT_WIKI_FOLDER;
  if (options.anywhere) return resolve(root, given);
  const absolute = isAbsolute(given) ? given : join(root, given);
  const inside = relative(root, absolute);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new Error(`The wiki folder "${given}" must be a folder inside the workspace (setting codewiki.wiki.folder)`);
  return absolute;
}
