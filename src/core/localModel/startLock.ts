import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isProcessAlive } from '../util/processLiveness';
import { sleep, throwIfAborted } from '../util/abort';

/**
 * One starter at a time, machine-wide: two windows opened together would otherwise start two servers (two
 * copies of the weights in RAM, two servers splitting the cores). The lock is a file created exclusively
 * with the holder's pid in it; a start can take a quarter of an hour (the first build), so it never goes
 * stale by age, only when its holder's process is gone.
 */
export interface StartLock {
  release(): void;
}

export async function acquireStartLock(
  file: string,
  options: { signal?: AbortSignal; onWait?: (holderPid: number) => void; pollMs?: number } = {},
): Promise<StartLock> {
  mkdirSync(dirname(file), { recursive: true });
  let told = false;
  for (;;) {
    throwIfAborted(options.signal);
    const lock = tryCreate(file);
    if (lock) return lock;
    const holder = Number(readText(file).trim());
    if (!holder || !isProcessAlive(holder)) {
      // A dead holder (or a lock torn before its pid was written): break it and try again at once.
      rmSync(file, { force: true });
      continue;
    }
    if (!told) options.onWait?.(holder);
    told = true;
    await sleep(options.pollMs ?? 500, options.signal);
  }
}

function tryCreate(file: string): StartLock | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (Number(readText(file).trim()) === process.pid) rmSync(file, { force: true });
    },
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
