import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A page of the wiki folder, or undefined when it is not there. Only a regular file counts: a page that is a
 * symlink (a repository can commit one pointing at `~/.ssh/id_rsa` or `.env`) is never read, so neither the
 * agent's read_wiki nor the wiki view can be made to show another file; writing the page replaces the link.
 */
export async function readPage(wikiDir: string, page: string): Promise<string | undefined> {
  const path = join(wikiDir, page);
  const found = await lstat(path).catch(() => undefined);
  if (!found?.isFile()) return undefined;
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** `modules/*.md` on disk. */
export async function modulePages(wikiDir: string): Promise<string[]> {
  const names = await readdir(join(wikiDir, 'modules')).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `modules/${name}`);
}
