import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isProcessAlive } from '../util/processLiveness';

/** The running shared server as the process that started it recorded it (CACHE/local-server/server.json). */
export interface LocalServerRecord {
  /** Ends with /v1. */
  url: string;
  model: string;
  /** serve.sh's pid, which is llama-server's (serve.sh execs it) and its process group's. */
  pid: number;
  /** The folder its watcher reads leases from. */
  leasesDir: string;
  /** ISO time. */
  startedAt: string;
}

export function readRegistry(file: string): LocalServerRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalServerRecord>;
    if (typeof record.url !== 'string' || typeof record.model !== 'string' || typeof record.pid !== 'number' || typeof record.leasesDir !== 'string')
      return undefined;
    return { url: record.url, model: record.model, pid: record.pid, leasesDir: record.leasesDir, startedAt: String(record.startedAt ?? '') };
  } catch {
    return undefined; // none yet, or torn by a crash before the rename (cannot happen with the rename, but a hand edit can)
  }
}

/** Temp file and rename, so another window never reads half a record. */
export function writeRegistry(file: string, record: LocalServerRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(temp, file);
}

/** Removes the record only if it still names `pid` (a newer server may have replaced it meanwhile). */
export function removeRegistry(file: string, pid: number): void {
  if (readRegistry(file)?.pid === pid) rmSync(file, { force: true });
}

/**
 * Whether the recorded server still answers as that model: its process runs, `GET /health` is 200 and
 * `GET /v1/models` lists the model. A record left by a server that died (or a pid reused by another
 * program) fails here and is replaced.
 */
export async function isServing(record: LocalServerRecord, timeoutMs = 3000): Promise<boolean> {
  if (!isProcessAlive(record.pid)) return false;
  const origin = record.url.replace(/\/v1\/?$/, '');
  try {
    const health = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    await health.body?.cancel();
    if (!health.ok) return false;
    const models = await fetch(`${record.url.replace(/\/$/, '')}/models`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (!models.ok) return false;
    const body = (await models.json()) as { data?: Array<{ id?: string }> };
    return Boolean(body.data?.some((entry) => entry.id === record.model));
  } catch {
    return false;
  }
}
