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
