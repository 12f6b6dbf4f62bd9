import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { plainProse } from '../prose/plainProse';
import { readPage } from './pageFiles';
import { readPageParts } from './pageSections';
import { MANIFEST_FILE, type ManifestEntry } from './wikiManifest';

/** Fewer module pages than this and an overview is about everything. */
const MIN_MODULES = 3;
/** About 250 tokens: the gist of a module, not its page. */
const MAX_CHARS = 1_000;

/**
 * The overview of the module a file belongs to, as plain text, from the pages on disk (the manifest says
 * which page is whose; nothing is computed): what an answer about that file starts from. Undefined when
 * there is no wiki, no page for the file's folder, or no current prose on it.
 */
export async function moduleOverviewFor(wikiDir: string, path: string): Promise<{ page: string; module: string; text: string } | undefined> {
  const entries = await readManifest(wikiDir);
  // A wiki of one or two modules describes the whole project on each page, which tells a "how does X work" answer
  // nothing the matches do not, and pulled the 1.5B default away from them (npm run eval:wiki, requests: 1 of 5
  // right with its one overview, 3 of 5 without).
  if (entries.filter((entry) => entry.page.startsWith('modules/')).length < MIN_MODULES) return undefined;
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
