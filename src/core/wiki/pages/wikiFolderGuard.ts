import { lstat, mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { relativeInside } from '../../workspace/workspace';
import { assertManifestIsOurs } from './wikiManifest';

/**
 * Makes the wiki folder and its `modules/` folder, then checks through real paths that writing there stays where
 * the user meant. A folder inside the workspace (the default, or the setting, which a repository controls) must
 * really be inside it: a committed symlink `.codewiki/wiki -> ~/somewhere` must not make CodeWiki write or delete
 * there. A folder the user named outside the workspace (`codewiki wiki --out`) is theirs to choose; `modules/` must
 * be a real folder in either case.
 */
export async function prepareWikiFolder(wikiDir: string, roots: readonly string[]): Promise<void> {
  // Before anything is made: a folder holding someone else's manifest.json is not the wiki's.
  await assertManifestIsOurs(wikiDir);
  await mkdir(join(wikiDir, 'modules'), { recursive: true });
  const realDir = await realpath(wikiDir);
  const lexicallyInside = roots.some((root) => relativeInside(root, wikiDir) !== undefined);
  if (lexicallyInside) {
    const realRoots = await Promise.all(roots.map((root) => realpath(root)));
    const inside = realRoots.find((root) => relativeInside(root, realDir) !== undefined);
    if (!inside) throw new Error(`The wiki folder ${wikiDir} leads outside the workspace (to ${realDir}, through a symlink): nothing was written`);
    if (relativeInside(inside, realDir)!.split('/').includes('.git')) throw new Error(`The wiki folder ${wikiDir} is inside .git: nothing was written`);
  }
  if (!(await lstat(join(wikiDir, 'modules'))).isDirectory()) throw new Error(`${join(wikiDir, 'modules')} is not a folder (a symlink?): nothing was written`);
}
