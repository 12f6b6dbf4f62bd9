import { rmSync } from 'node:fs';
import { isProcessAlive } from '../util/processLiveness';
import { sleep } from '../util/abort';
import { localServerFiles } from './localModelFiles';
import { readRegistry, removeRegistry, type LocalServerRecord } from './localServerRegistry';

/**
 * Stops the recorded server now, whoever holds it (`codewiki local-model stop`): SIGTERM to its process
 * group (llama-server and serve.sh's watcher), SIGKILL after `graceMs`. Undefined when none was recorded.
 */
export async function stopLocalModel(cacheDir: string, graceMs = 10_000): Promise<LocalServerRecord | undefined> {
  const files = localServerFiles(cacheDir);
  const record = readRegistry(files.registry);
  if (!record) return undefined;
  signalGroup(record.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isProcessAlive(record.pid) && Date.now() < deadline) await sleep(100);
  if (isProcessAlive(record.pid)) signalGroup(record.pid, 'SIGKILL');
  removeRegistry(files.registry, record.pid);
  rmSync(record.leasesDir, { recursive: true, force: true });
  return record;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}
