import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { plainProse } from '../prose/plainProse';
import { readPage } from './pageFiles';
import { readPageParts } from './pageSections';
import { MANIFEST_FILE, type ManifestEntry } from './wikiManifest';

/** About 250 tokens: the gist of a module, not its page. */
const MAX_CHARS = 1_000;

/**
 * The overview of the module a file belongs to, as plain text, from the pages on disk (the manifest says
 * which page is whose; nothing is computed): what an answer about that file starts from. Undefined when
 * there is no wiki, no page for the file's folder, or no current prose on it.
 */
export async function moduleOverviewFor(wikiDir: string, path: string): Promise<{ page: string; module: string; text: string } | undefined> {
  const entries = await readManifest(wikiDir);
  const owner = entries
    .filter((entry) => entry.page.startsWith('modules/'))
    .flatMap((entry) => (entry.folders ?? [entry.module]).map((folder) => ({ entry, folder })))
    .filter(({ folder }) => folder === '.' || path.startsWith(`${folder}/`))
    .sort((a, b) => b.folder.length - a.folder.length)[0]?.entry;
  // Prose written for other contents of the module may say what is no longer so: better none.
  if (!owner?.prose || owner.prose.sources !== owner.sources) return undefined;
  const page = await readPage(wikiDir, owner.page);
  const text = plainProse(page === undefined ? undefined : readPageParts(page).prose);
  if (text === undefined) return undefined;
  return { page: owner.page, module: owner.module, text: text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text };
}

async function readManifest(wikiDir: string): Promise<ManifestEntry[]> {
  try {
    const parsed = JSON.parse(await readFile(join(wikiDir, MANIFEST_FILE), 'utf8')) as { pages?: ManifestEntry[] };
    return Array.isArray(parsed.pages) ? parsed.pages.filter((entry) => typeof entry?.page === 'string' && typeof entry.module === 'string') : [];
  } catch {
    return [];
  }
}
