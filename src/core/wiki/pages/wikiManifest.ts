import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import { readPageParts, type ProseMeta } from './pageSections';
import { modulePages, readPage } from './pageFiles';

export const MANIFEST_FILE = 'manifest.json';

export interface ManifestEntry {
  page: string;
  module: string;
  /** The module's folders when it has more than its own. */
  folders?: string[];
  /** sha256 of the module's files (paths and contents) the page was rendered from. */
  sources: string;
  prose?: Pick<ProseMeta, 'model' | 'commit' | 'sources'>;
}

/**
 * `manifest.json`: every page with the content hashes it was written from. Derived from the pages' own
 * headers (the pages are the truth), so pages written by separate CI jobs merge by copying files.
 */
export async function writeManifest(wikiDir: string): Promise<void> {
  const pages: ManifestEntry[] = [];
  for (const page of ['index.md', ...(await modulePages(wikiDir))]) {
    const text = await readPage(wikiDir, page);
    const meta = text === undefined ? undefined : readPageParts(text).meta;
    if (!meta) continue;
    const { model, commit, sources } = meta.prose ?? {};
    pages.push({
      page,
      module: meta.module,
      ...(meta.folders ? { folders: meta.folders } : {}),
      sources: meta.sources,
      ...(meta.prose ? { prose: { model: model!, commit: commit!, sources: sources! } } : {}),
    });
  }
  await writeFileAtomic(join(wikiDir, MANIFEST_FILE), `${JSON.stringify({ version: 1, pages }, null, 2)}\n`);
}

/**
 * Refuses a wiki folder whose `manifest.json` CodeWiki did not write (a folder set to `docs/`, say, that holds a web
 * app's manifest): CodeWiki never overwrites a file of the user's.
 */
export async function assertManifestIsOurs(wikiDir: string): Promise<void> {
  const path = join(wikiDir, MANIFEST_FILE);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return;
  if (!isManifest(text)) throw new Error(`${path} is not CodeWiki's manifest: move it, or choose another wiki folder (nothing was written)`);
}

function isManifest(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { version?: unknown; pages?: unknown };
    return parsed.version === 1 && Array.isArray(parsed.pages);
  } catch {
    return false;
  }
}
