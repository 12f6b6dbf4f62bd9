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

/** The CLI's index folder: `index/` in CodeWiki's cache, `CODEWIKI_CACHE_DIR` or `~/.cache/codewiki` (the same cache serve.sh keeps the local model in). */
export function cliIndexDir(env: NodeJS.ProcessEnv): string {
  return join(env.CODEWIKI_CACHE_DIR || join(homedir(), '.cache', 'codewiki'), 'index');
}
