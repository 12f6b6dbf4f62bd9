import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A page of the wiki folder, or undefined when it is not there. */
export async function readPage(wikiDir: string, page: string): Promise<string | undefined> {
  return readFile(join(wikiDir, page), 'utf8').catch((error: NodeJS.ErrnoException) => {
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
