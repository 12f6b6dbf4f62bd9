import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../util/processLiveness';

/**
 * A claim on the shared local model. serve.sh's watcher (CODEWIKI_SERVE_LEASES) stops the server once no
 * lease in its folder is live, so the server outlives any one holder but not the last. A lease is a file
 * `PID-RANDOM.lease` holding `PID UNTIL`: live while process PID runs, or until the epoch second UNTIL
 * (0: no linger). A VS Code window holds one with its own pid (a crashed window's lease dies with it); a
 * finished CLI call leaves one with an UNTIL, so the next call within the idle time reuses the server.
 * Plain text, not JSON, because the reader is bash.
 */
export interface Lease {
  readonly file: string;
  /** Keeps the server until `untilMs` (epoch ms) even after this process is gone; 0 ends that. */
  linger(untilMs: number): void;
  /** Gives the claim up now. */
  release(): void;
}

export interface LeaseState {
  file: string;
  pid: number;
  /** Epoch ms; 0 when the lease does not outlive its process. */
  untilMs: number;
  live: boolean;
}

/** Synchronous on purpose: a CLI lingers from its `exit` handler, where nothing asynchronous runs. */
export function takeLease(dir: string, pid: number = process.pid, untilMs = 0): Lease {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${pid}-${randomBytes(4).toString('hex')}.lease`);
  writeLease(file, pid, untilMs);
  return {
    file,
    linger: (until) => writeLease(file, pid, until),
    release: () => rmSync(file, { force: true }),
  };
}

/** Every lease in `dir` and whether it still holds the server, by the rule serve.sh applies. */
export function readLeases(dir: string, nowMs: number = Date.now()): LeaseState[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.lease'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return []; // released while we looked
    }
    const [pidText = '', untilText = '0'] = text.trim().split(/\s+/);
    const pid = Number(pidText);
    const untilMs = Number(untilText) * 1000 || 0;
    const live = untilMs > nowMs || (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid));
    return [{ file, pid, untilMs, live }];
  });
}

export function hasLiveLease(dir: string, nowMs?: number): boolean {
  return readLeases(dir, nowMs).some((lease) => lease.live);
}

/** Written whole and renamed into place: serve.sh never reads half a lease (it would count it dead). */
function writeLease(file: string, pid: number, untilMs: number): void {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${pid} ${Math.ceil(untilMs / 1000)}\n`);
  renameSync(temp, file);
}
