import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export const REPO_ROOT = resolve(__dirname, '../..');
const SERVE = join(REPO_ROOT, 'scripts/local-model/serve.sh');
const MANIFEST = join(REPO_ROOT, 'scripts/local-model/models.json');

/** The pinned models' manifest: `fastTestModel` is the test tier's, `defaultModel` the product's. */
export function pinnedModels(): { defaultModel: string; fastTestModel: string } {
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as { defaultModel: string; fastTestModel: string };
}

export interface LocalModelServer {
  /** Ends with /v1. */
  baseUrl: string;
  /** Without /v1: llama-server's own routes (/slots, /props, /health). */
  origin: string;
  model: string;
  logFile: string;
  log(): string;
  /** True while any slot is generating, as `GET /slots` reports it. */
  busySlots(): Promise<number>;
  /** Ends the server and removes its log. */
  stop(): Promise<void>;
}

/**
 * Starts llama.cpp's real server through the product's own script (scripts/local-model/serve.sh) and waits for
 * its one "local model ready" line. `npm test`'s pretest has built the server and fetched the weights already,
 * so this takes seconds. The server runs in its own process group and is stopped with it. `gguf` serves that file
 * instead of a pinned model (`serve.sh --gguf`: named after the file).
 */
export async function startLocalModel(options: { model?: string; gguf?: string; args?: string[] } = {}): Promise<LocalModelServer> {
  const model = options.gguf ? ['--gguf', options.gguf] : ['--model', options.model ?? pinnedModels().fastTestModel];
  const logFile = join(mkdtempSync(join(tmpdir(), 'codewiki-llama-')), 'llama-server.log');
  const child = spawn('bash', [SERVE, ...model, '--', ...(options.args ?? [])], {
    env: { ...process.env, CODEWIKI_SERVE_LOG: logFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  stopWhenTestProcessDies(child);
  const ready = await readyLine(child, () => stderr);
  const [, baseUrl, name] = /^local model ready: (\S+) model=(\S+)$/.exec(ready)!;
  const origin = baseUrl!.replace(/\/v1$/, '');
  return {
    baseUrl: baseUrl!,
    origin,
    model: name!,
    logFile,
    log: () => readFileSync(logFile, 'utf8'),
    async busySlots() {
      const slots = (await (await fetch(`${origin}/slots`)).json()) as Array<{ is_processing?: boolean }>;
      return slots.filter((slot) => slot.is_processing).length;
    },
    async stop() {
      await stopGroup(child);
      rmSync(dirname(logFile), { recursive: true, force: true });
    },
  };
}

/**
 * The server runs in its own process group (so stop() ends all of it), which also means nothing ends it when the
 * test process is killed before `after` runs. A tiny detached watchdog does: it ends the group once we are gone.
 */
function stopWhenTestProcessDies(child: ChildProcess): void {
  if (child.pid === undefined) return;
  const watch = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 1; done; kill -TERM -- -${child.pid} 2>/dev/null`;
  spawn('bash', ['-c', watch], { detached: true, stdio: 'ignore' }).unref();
}

function readyLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.startsWith('local model ready: '));
      if (line) resolvePromise(line.trim());
    });
    child.on('exit', (code) => reject(new Error(`serve.sh exited (${code}) before it was ready:\n${stderr()}`)));
  });
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, delay(5_000)]);
  if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
}

/** Polls until `done` holds, or throws after `timeoutMs` (a guard against hangs, not a timing assertion). */
export async function waitFor(done: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}
