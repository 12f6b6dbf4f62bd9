import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';

/**
 * The repositories of `npm run eval:agent`, pinned at a commit, and their questions (bench/eval/questions,
 * written by hand: where-is questions a newcomer asks, with the file that answers each). The repositories
 * themselves are never committed: the eval looks for clones in a cache folder and says how to get them.
 */
export interface EvalQuestion {
  question: string;
  /** Every file that answers it: the first is where the question's author looked, the others were checked in the code. */
  files: string[];
  symbol?: string;
  /** Why a file after the first answers too (file:line and what is there), so a wider key is never a guess. */
  also?: string;
  /** A question mined from history: the commit whose subject it is. */
  commit?: string;
}

export interface EvalRepo {
  repo: string;
  commit: string;
  language: string;
  /** Written where-is questions; none for a repository evaluated on its history alone. */
  questions: EvalQuestion[];
  /** How many questions to mine from its git history (default 20). */
  historyQuestions?: number;
  /** The clone, or undefined when it is missing or at another commit. */
  dir?: string;
  problem?: string;
}

const QUESTIONS_DIR = resolve(__dirname, 'questions');

/** `CODEWIKI_EVAL_REPOS`, else `eval-repos/` in CodeWiki's cache (`CODEWIKI_CACHE_DIR` or ~/.cache/codewiki). */
export function evalReposDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEWIKI_EVAL_REPOS || join(env.CODEWIKI_CACHE_DIR || join(homedir(), '.cache', 'codewiki'), 'eval-repos');
}

export function loadEvalRepos(env: NodeJS.ProcessEnv = process.env): EvalRepo[] {
  const root = evalReposDir(env);
  return readdirSync(QUESTIONS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const repo = JSON.parse(readFileSync(join(QUESTIONS_DIR, file), 'utf8')) as EvalRepo;
      const dir = join(root, repo.repo.replace('/', '+'));
      if (!existsSync(join(dir, '.git'))) return { ...repo, problem: `missing: ${howToGet(repo, dir)}` };
      const head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
      if (head !== repo.commit)
        return { ...repo, problem: `${dir} is at ${head.slice(0, 12)}, not ${repo.commit.slice(0, 12)}: git -C ${dir} checkout ${repo.commit}` };
      return { ...repo, dir };
    });
}

export function howToGet(repo: Pick<EvalRepo, 'repo' | 'commit'>, dir: string): string {
  return `git clone https://github.com/${repo.repo} ${dir} && git -C ${dir} checkout ${repo.commit}`;
}

/**
 * A copy of an evaluation clone without its `.git` folder, for benches that edit files and must leave the clone as it
 * is. Only that folder: `.github/`, `.gitignore` and the like are the repository's own files (a filter on the text
 * `.git` dropped 27 of terraform's until 2026-12-07).
 */
export function copyWithoutGit(clone: string, to: string): void {
  const gitFolder = join(clone, '.git');
  cpSync(clone, to, { recursive: true, filter: (source) => source !== gitFolder && !source.startsWith(`${gitFolder}${sep}`) });
}
