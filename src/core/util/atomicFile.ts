import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { isProcessAlive } from './processLiveness';

/**
 * Replaces `path` so that readers (and a crash) see either the old content or the new, never a mix:
 * write a temp file in the same folder, fsync it, rename it over the target, then fsync the folder so
 * the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    // Best effort: the original error is what the caller needs to see, not a failed cleanup.
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

const TEMP_NAME = /\.(\d+)-[0-9a-f]{8}\.tmp$/;

/**
 * A live writer's temp file exists for one write and fsync. One this old belongs to a pid that was
 * reused, or to a hung or remote writer; removing it makes that writer's rename fail, and a failed write
 * stays queued and is retried with a new temp file, so nothing is lost.
 */
const ABANDONED_TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * A process killed between writing a temp file and renaming it leaves the temp file behind. Removes
 * those in `dir` whose writer is gone (the pid in the name is dead on this machine) or that are older
 * than ABANDONED_TEMP_AGE_MS. A live writer's fresh temp file may be another window mid-write: kept.
 */
export async function removeAbandonedTempFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const pid = Number(TEMP_NAME.exec(name)?.[1]);
    if (!pid) continue;
    const path = join(dir, name);
    const stats = await stat(path).catch(() => undefined);
    if (!stats) continue; // renamed into place by its writer meanwhile
    if (!isProcessAlive(pid) || Date.now() - stats.mtimeMs > ABANDONED_TEMP_AGE_MS) await rm(path, { force: true });
  }
}

/** Makes a new or renamed directory entry durable. Windows cannot open folders for fsync; skip there. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves a damaged file into `targetDir`, keeping its bytes for later recovery. An existing file there is
 * never replaced: a clashing name gets a time stamp and random suffix. (Callers hold the conversation's
 * lock, so no other process moves a file of that name at the same moment, and a check-then-rename is
 * enough here.) Returns the new path.
 */
export function moveAsideSync(source: string, targetDir: string): string {
  mkdirSync(targetDir, { recursive: true });
  const extension = extname(source);
  const stem = basename(source, extension);
  let target = join(targetDir, basename(source));
  while (existsSync(target)) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    target = join(targetDir, `${stem}.${stamp}-${randomBytes(3).toString('hex')}${extension}`);
  }
  renameSync(source, target);
  return target;
}
