import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { EvalQuestion } from './evalRepos';

const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');

export interface AskOutcome {
  correct: boolean;
  toolCalls: number;
  seconds: number;
  /** The answer, for reading the misses. */
  answer: string;
  timedOut: boolean;
}

export interface AskOptions {
  baseUrl: string;
  model: string;
  withIndex: boolean;
  /** A question that runs longer is stopped and counted wrong. */
  timeoutMs: number;
  /** The CLI's cache (its saved indexes), so the eval never touches the user's. */
  cacheDir: string;
}

/**
 * One `codewiki ask` on the built CLI, as a user runs it: the answer (stdout) counts as right when it names
 * the file that answers the question, by its path, or by its name when no other file in the repository
 * has that name. Tool calls come from the run log.
 */
export async function askQuestion(workspace: string, question: EvalQuestion, options: AskOptions): Promise<AskOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-eval-'));
  const log = join(dir, 'log.json');
  const args = [CLI, 'ask', question.question, '--workspace', workspace, '--base-url', options.baseUrl, '--model', options.model, '--max-iterations', '8', '--log', log];
  if (!options.withIndex) args.push('--no-index');
  const started = performance.now();
  let timedOut = false;
  const answer = await new Promise<string>((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, CODEWIKI_CACHE_DIR: options.cacheDir } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGINT');
    }, options.timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      done(out);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  let toolCalls = 0;
  try {
    const parsed = JSON.parse(readFileSync(log, 'utf8')) as { iterations?: Array<{ toolCalls?: unknown[] }> };
    toolCalls = (parsed.iterations ?? []).reduce((n, it) => n + (it.toolCalls?.length ?? 0), 0);
  } catch {
    // no log: the run failed or was stopped before it wrote one; the answer decides
  }
  rmSync(dir, { recursive: true, force: true });
  return { correct: !timedOut && namesAnswer(answer, question.files, workspace), toolCalls, seconds, answer: answer.trim(), timedOut };
}

const uniqueNames = new Map<string, Set<string>>();

/** The answer names one of `files` by its path, or by a file name that only one file of the repository has. */
export function namesAnswer(answer: string, files: string[], workspace: string): boolean {
  let names = uniqueNames.get(workspace);
  if (!names) {
    const counts = new Map<string, number>();
    for (const path of execFileSync('git', ['-C', workspace, 'ls-files'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n')) {
      counts.set(basename(path), (counts.get(basename(path)) ?? 0) + 1);
    }
    names = new Set([...counts].filter(([, count]) => count === 1).map(([name]) => name));
    uniqueNames.set(workspace, names);
  }
  return files.some((file) => answer.includes(file) || (names.has(basename(file)) && new RegExp(`(^|[^\\w.-])${escape(basename(file))}\\b`).test(answer)));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
