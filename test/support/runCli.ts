import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

/** The CLI saves code indexes in CodeWiki's cache; tests give it one of their own, not the developer's. */
let testCacheDir: string | undefined;
function cacheDir(): string {
  if (!testCacheDir) {
    const dir = mkdtempSync(join(tmpdir(), 'codewiki-test-cache-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    testCacheDir = dir;
  }
  return testCacheDir;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a child process, the way scripts and CI use it. The environment is
 * cleared of model settings so a developer's own configuration cannot leak into a test, and
 * the local model is off (CODEWIKI_LOCAL_MODEL=off) unless a test turns it on: with no model
 * configured the CLI would otherwise start llama-server.
 */
export function startCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): { child: ChildProcess; done: Promise<CliResult>; output: () => CliResult } {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(CODEWIKI_|OPENAI_)/.test(key)) env[key] = value;
  }
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...env, CODEWIKI_CACHE_DIR: cacheDir(), CODEWIKI_LOCAL_MODEL: 'off', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done, output: () => ({ code: null, signal: null, stdout, stderr }) };
}

export function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  return startCli(args, options).done;
}
