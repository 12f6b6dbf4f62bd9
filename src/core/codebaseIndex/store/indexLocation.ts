import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a workspace's index is saved: outside the workspace, under the host's storage (the extension's
 * global storage, the CLI's cache folder), one file per set of workspace folders.
 */
export function snapshotFile(storeDir: string, roots: readonly string[]): string {
  const key = createHash('sha256').update(roots.join('\n')).digest('hex').slice(0, 24);
  return join(storeDir, `${key}.json`);
}

/**
 * Which folders one saved index belongs to: their real paths, and in a workspace of several folders their
 * names too, since the other folders' paths begin with them (a renamed folder gets a fresh index).
 */
export function indexedFolders(workspace: { roots: readonly string[]; folderNames: readonly string[] }): string[] {
  return workspace.roots.length > 1 ? workspace.roots.map((root, index) => `${root}\u0000${workspace.folderNames[index]}`) : [...workspace.roots];
}

/** CodeWiki's cache folder for the CLI: `CODEWIKI_CACHE_DIR`, else `~/.cache/codewiki` (where serve.sh keeps the local model too). */
export function cliCacheDir(env: NodeJS.ProcessEnv): string {
  return env.CODEWIKI_CACHE_DIR || join(homedir(), '.cache', 'codewiki');
}

/** The CLI's saved indexes: `index/` in its cache. */
export function cliIndexDir(env: NodeJS.ProcessEnv): string {
  return join(cliCacheDir(env), 'index');
}
