import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodebaseIndex } from '../../src/core/codebaseIndex/codebaseIndex';
import { readPageParts } from '../../src/core/wiki/pages/pageSections';
import { checkClaims, type RemovedClaim } from '../../src/core/wiki/prose/claimCheck';
import { KnownNames } from '../../src/core/wiki/prose/knownNames';
import { Workspace } from '../../src/core/workspace/workspace';

/**
 * The trust check run again over the prose of the pages as saved (links reduced to their text), against an index
 * built afresh from the workspace: what it would still remove, by page. "Zero invented names" on the pages,
 * measured rather than inferred from what the check removed while writing them.
 */
export async function namesTheIndexDoesNotKnow(root: string, wikiDir: string, pages: readonly string[]): Promise<Map<string, RemovedClaim[]>> {
  const index = new CodebaseIndex({ workspace: await Workspace.open(root) });
  try {
    await index.update();
    const known = new KnownNames(await index.structure());
    const found = new Map<string, RemovedClaim[]>();
    for (const page of pages) {
      const prose = readPageParts(readFileSync(join(wikiDir, page), 'utf8')).prose ?? '';
      found.set(page, (await checkClaims(prose.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'), known, async () => undefined)).removed);
    }
    return found;
  } finally {
    await index.dispose();
  }
}
