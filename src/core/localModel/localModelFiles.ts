import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the shared local model keeps its bookkeeping. Everything sits in CodeWiki's cache folder, the one
 * serve.sh builds and downloads into, so every host on the machine (each VS Code window, each CLI call,
 * start.sh) finds the same server:
 *
 *   CACHE/local-server/server.json        the running server: url, model, pid, its lease folder
 *   CACHE/local-server/starting.lock      held (pid inside) while one process starts a server
 *   CACHE/local-server/leases-ID/*.lease  who still needs server ID ("PID UNTIL", read by serve.sh)
 */
export function codewikiCacheDir(env: NodeJS.ProcessEnv): string {
  return env.CODEWIKI_CACHE_DIR || join(env.HOME || homedir(), '.cache', 'codewiki');
}

export interface LocalServerFiles {
  dir: string;
  registry: string;
  startLock: string;
  leasesDir(serverId: string): string;
}

export function localServerFiles(cacheDir: string): LocalServerFiles {
  const dir = join(cacheDir, 'local-server');
  return {
    dir,
    registry: join(dir, 'server.json'),
    startLock: join(dir, 'starting.lock'),
    leasesDir: (serverId) => join(dir, `leases-${serverId}`),
  };
}
