import { isAbsolute, join } from 'node:path';
import { DEFAULT_WIKI_FOLDER } from '../codebaseIndex/build/notIndexed';
import { relativeInside } from '../workspace/workspace';

export { DEFAULT_WIKI_FOLDER };

/**
 * The wiki folder, absolute. A folder from settings (`codewiki.wiki.folder`, which a repository may set)
 * must stay inside the first workspace folder, so a cloned repository cannot make CodeWiki write elsewhere (the
 * real path is checked again before every write: pages/wikiFolderGuard.ts). A folder the user types on the command
 * line (`--out`) may be anywhere; the CLI resolves it itself.
 */
export function wikiFolder(root: string, setting?: string): string {
  const given = setting?.trim() || DEFAULT_WIKI_FOLDER;
  const absolute = isAbsolute(given) ? given : join(root, given);
  const inside = relativeInside(root, absolute);
  if (inside === undefined || inside === '.')
    throw new Error(`The wiki folder "${given}" must be a folder inside the workspace (setting codewiki.wiki.folder)`);
  return absolute;
}
