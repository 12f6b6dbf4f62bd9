/**
 * The wiki's default folder, relative to the first workspace folder. Its pages repeat every name of the
 * code they describe, so indexing them would put pages above the code in every search: the index skips it.
 */
export const DEFAULT_WIKI_FOLDER = '.codewiki/wiki';

/** Whether a walked file (its path relative to its workspace folder) stays out of the index. */
export function isNotIndexed(relative: string): boolean {
  return relative === DEFAULT_WIKI_FOLDER || relative.startsWith(`${DEFAULT_WIKI_FOLDER}/`);
}
