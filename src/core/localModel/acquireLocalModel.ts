import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { localServerFiles } from './localModelFiles';
import { hasLiveLease, takeLease, type Lease } from './leases';
import { isServing, readRegistry, writeRegistry, type LocalServerRecord } from './localServerRegistry';
import { pinnedModelName, readPinnedModels } from './modelManifest';
import { startServeScript } from './serveProcess';
import type { LocalModelProgress } from './serveProgress';
import { acquireStartLock } from './startLock';

export interface LocalModelRequest {
  /** scripts/local-model/serve.sh, from the clone, the npm package or the VSIX. */
  serveScript: string;
  /** CODEWIKI_CACHE_DIR or ~/.cache/codewiki: where serve.sh builds and downloads, and where the server is recorded. */
  cacheDir: string;
  /** A pinned model name (models.json); empty: the manifest's default. */
  model?: string;
  /** The process the lease is for (default: this one). start.sh passes its own pid through the CLI. */
  holderPid?: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (progress: LocalModelProgress) => void;
}

export interface LocalModel {
  /** Ends with /v1. */
  url: string;
  model: string;
  pid: number;
  /** True when this call started the server, false when it reused one that was running. */
  started: boolean;
  /** This holder's claim: release it when done, or let it linger (the CLI's idle time). */
  lease: Lease;
}

/**
 * The machine's shared local model, started on demand: a running server for the same model is reused
 * (another window, an earlier CLI call), otherwise serve.sh starts one, with its progress reported and
 * `signal` stopping it. Either way the caller gets a lease; the server stops when the last lease is gone
 * (see leases.ts). One starter at a time: a second caller waits and then reuses what the first started.
 */
export async function acquireLocalModel(request: LocalModelRequest): Promise<LocalModel> {
  const files = localServerFiles(request.cacheDir);
  const model = pinnedModelName(readPinnedModels(request.serveScript), request.model);
  const reused = await reuseRunning(files.registry, model, request.holderPid);
  if (reused) return reused;

  const lock = await acquireStartLock(files.startLock, {
    signal: request.signal,
    onWait: (pid) =>
      request.onProgress?.({
        message: 'waiting for another CodeWiki process that is starting the local model',
        line: `waiting for process ${pid}, which is starting the local model`,
      }),
  });
  try {
    // The one we waited for may have started just what we need.
    const meanwhile = await reuseRunning(files.registry, model, request.holderPid);
    if (meanwhile) return meanwhile;
    removeAbandonedLeaseFolders(files.dir);
    const serverId = randomBytes(6).toString('hex');
    const leasesDir = files.leasesDir(serverId);
    // Taken before the server exists, so its watcher finds it the moment the server is ready.
    const lease = takeLease(leasesDir, request.holderPid);
    try {
      const served = await startServeScript({
        script: request.serveScript,
        model,
        cacheDir: request.cacheDir,
        leasesDir,
        env: request.env ?? process.env,
        signal: request.signal,
        onProgress: request.onProgress,
      });
      writeRegistry(files.registry, { ...served, leasesDir, startedAt: new Date().toISOString() });
      return { ...served, started: true, lease };
    } catch (error) {
      lease.release();
      rmSync(leasesDir, { recursive: true, force: true });
      throw error;
    }
  } finally {
    lock.release();
  }
}

/**
 * The running server for the requested model, with a lease taken on it, or undefined: never starts one.
 * A window that opens while another already runs the local model uses it without asking.
 */
export async function reuseLocalModel(request: Pick<LocalModelRequest, 'serveScript' | 'cacheDir' | 'model' | 'holderPid'>): Promise<LocalModel | undefined> {
  const model = pinnedModelName(readPinnedModels(request.serveScript), request.model);
  return reuseRunning(localServerFiles(request.cacheDir).registry, model, request.holderPid);
}

/** The recorded server when it serves `model`, with a lease taken on it. */
async function reuseRunning(registry: string, model: string, holderPid: number | undefined): Promise<LocalModel | undefined> {
  const record = readRegistry(registry);
  if (!record || record.model !== model) return undefined;
  // The lease first: a server whose last lease just expired must not stop between the check and the claim.
  const lease = takeLease(record.leasesDir, holderPid);
  if (await isServing(record)) return { url: record.url, model: record.model, pid: record.pid, started: false, lease };
  lease.release();
  return undefined;
}

/** The running server, if any and whatever its model (for `codewiki local-model status` and stop). */
export async function runningLocalModel(cacheDir: string): Promise<LocalServerRecord | undefined> {
  const record = readRegistry(localServerFiles(cacheDir).registry);
  return record && (await isServing(record)) ? record : undefined;
}

/** Lease folders of servers that have stopped: no lease in them holds anything any more. Called under the start lock. */
function removeAbandonedLeaseFolders(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('leases-') && !hasLiveLease(join(dir, name))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
