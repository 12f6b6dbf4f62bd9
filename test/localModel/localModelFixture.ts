import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/core/util/processLiveness';

/** The fake serve.sh (fixtures/fake-serve.sh): real processes, real lease-watch.sh, a tiny node server. */
export const FAKE_SERVE = join(__dirname, 'fixtures', 'fake-serve.sh');

export interface FakeServeWorld {
  cacheDir: string;
  startsFile: string;
  /** Pids of the servers started so far (fake-serve.sh appends its pid). */
  starts(): number[];
  /** The environment a host passes to the serve script: a fast lease check, the starts file. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  /** A stand-in holder process (a window, start.sh) that the test can end. */
  holder(): ChildProcess;
  cleanup(): void;
}

export function fakeServeWorld(): FakeServeWorld {
  const cacheDir = mkdtempSync(join(tmpdir(), 'codewiki-local-model-'));
  const startsFile = join(cacheDir, 'starts.txt');
  const holders: ChildProcess[] = [];
  const starts = () => (existsSync(startsFile) ? readFileSync(startsFile, 'utf8').split('\n').filter(Boolean).map(Number) : []);
  return {
    cacheDir,
    startsFile,
    starts,
    env: (extra = {}) => ({ ...process.env, CODEWIKI_LEASE_POLL: '0.1', FAKE_SERVE_STARTS: startsFile, ...extra }),
    holder() {
      const child = spawn('sleep', ['60'], { stdio: 'ignore' });
      holders.push(child);
      return child;
    },
    cleanup() {
      for (const child of holders) child.kill('SIGKILL');
      for (const pid of starts()) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // stopped already, as it should be
        }
      }
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `done` holds; throws after `timeoutMs` (a guard against hangs, not a timing assertion). */
export async function waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const serverStopped = (pid: number) => () => !isProcessAlive(pid);

export async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url.replace(/\/v1$/, '')}/health`);
    return response.ok;
  } catch {
    return false;
  }
}
