import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EvalQuestion } from './evalRepos';
import { onlyPathEndingWith, pathEndsWith } from '../../src/core/workspace/pathEnds';

/** CODEWIKI_EVAL_CLI: a frozen copy of the built CLI (its whole dist folder), so rebuilding while the eval runs changes nothing. */
const CLI = process.env.CODEWIKI_EVAL_CLI ?? resolve(__dirname, '..', '..', 'dist', 'cli.js');

export interface AskOutcome {
  /** The first workspace file the answer names is one that answers the question. */
  correct: boolean;
  /** Some file the answer names answers it (an answer that lists four files, one of them right). */
  mentions: boolean;
  toolCalls: number;
  seconds: number;
  /** The answer, for reading the misses. */
  answer: string;
  timedOut: boolean;
  /** Prompt tokens over the question's model calls, and how many the server took from its cache (the run log). */
  promptTokens: number;
  cachedTokens: number;
  /** Time to the first token of the first model call. */
  firstTokenMs?: number;
}

interface RunLog {
  iterations?: Array<{
    iteration: number;
    toolCalls?: unknown[];
    tokens?: { input: number; cached?: number };
    firstTokenMs?: number;
    server?: { cachedTokens: number; evaluatedTokens: number };
  }>;
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
  const args = [
    CLI,
    'ask',
    question.question,
    '--workspace',
    workspace,
    '--base-url',
    options.baseUrl,
    '--model',
    options.model,
    '--max-iterations',
    '8',
    '--log',
    log,
  ];
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
  const prompt = { promptTokens: 0, cachedTokens: 0, firstTokenMs: undefined as number | undefined };
  try {
    const parsed = JSON.parse(readFileSync(log, 'utf8')) as RunLog;
    // Iteration 0 holds the search CodeWiki makes before the model's first turn: the model's own calls are counted.
    const turns = (parsed.iterations ?? []).filter((it) => it.iteration > 0);
    toolCalls = turns.reduce((n, it) => n + (it.toolCalls?.length ?? 0), 0);
    // llama-server's own timings when it sent them (cached + evaluated is the whole prompt), else the usage figures.
    // A call CodeWiki stopped early (a copy of the matches, or an answer that has named its place) has llama-server's
    // timings so far since 2026-12-07 (timings_per_token); before, it had none, and only the others counted here.
    const measured = turns.some((turn) => turn.server) ? turns.filter((turn) => turn.server) : turns;
    for (const it of measured.filter((turn) => turn.tokens)) {
      prompt.promptTokens += it.server ? it.server.cachedTokens + it.server.evaluatedTokens : it.tokens!.input;
      prompt.cachedTokens += it.server?.cachedTokens ?? it.tokens!.cached ?? 0;
    }
    prompt.firstTokenMs = turns.find((turn) => turn.tokens)?.firstTokenMs;
  } catch {
    // no log: the run failed or was stopped before it wrote one; the answer decides
  }
  rmSync(dir, { recursive: true, force: true });
  const named = filesNamed(answer, workspace);
  return {
    correct: !timedOut && question.files.includes(named[0] ?? ''),
    mentions: !timedOut && named.some((file) => question.files.includes(file)),
    toolCalls,
    seconds,
    answer: answer.trim(),
    timedOut,
    ...prompt,
  };
}

const repositories = new Map<string, { paths: string[] }>();

/**
 * The workspace files an answer names, in the order it names them: by path, or by the end of a path only one file
 * of the repository has (`sessions.py`, `globset/src/lib.rs`), which the chat's links open too. An answer that names
 * nothing in the repository names nothing.
 */
export function filesNamed(answer: string, workspace: string): string[] {
  let repository = repositories.get(workspace);
  if (!repository) {
    const paths = execFileSync('git', ['-C', workspace, 'ls-files'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\n')
      .filter(Boolean);
    repositories.set(workspace, (repository = { paths }));
  }
  const found: Array<{ at: number; path: string }> = [];
  for (const match of answer.matchAll(/[\w./-]+\.[A-Za-z0-9]{1,8}\b/g)) {
    const token = match[0].replace(/^\.\//, '');
    const path = repository.paths.find((known) => pathEndsWith(token, known)) ?? onlyPathEndingWith(repository.paths, token);
    if (path) found.push({ at: match.index, path });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.path))];
}
