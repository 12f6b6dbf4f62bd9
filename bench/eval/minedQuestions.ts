import { execFileSync } from 'node:child_process';
import type { EvalQuestion } from './evalRepos';

const SOURCE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|cs|rb|php|c|cc|cpp|h|hpp)$/;
const TEST = /(^|\/)(tests?|spec|__tests__|testdata|fixtures?|benches|examples?)\/|[._-](test|spec)s?\.[a-z]+$|(^|\/)test_[^/]*$|_test\.go$/i;
/** Subjects that describe no code: releases, merges, formatting, dependency bumps. */
const NOISE = /^(merge|revert|bump|release|version|chore|ci|docs?|style|format|typo|lint|update (deps|dependencies|changelog|readme)|v?\d+\.\d+)/i;

/**
 * Questions mined from history, the other half of the retrieval evaluation: a commit's subject is the
 * question, the source files it changed are the answer (SWE-bench's localisation task in miniature).
 * Only commits before the pinned one that changed one or two non-test source files that still exist,
 * with a subject of at least four words; the most recent `count`, so the set is the same on every run.
 */
export function minedQuestions(dir: string, commit: string, count: number): EvalQuestion[] {
  const existing = new Set(
    execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--name-only', commit], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n'),
  );
  const log = execFileSync('git', ['-C', dir, 'log', '--no-merges', '--format=@@%H %s', '--name-only', '-n', '3000', commit], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const questions: EvalQuestion[] = [];
  for (const entry of log.split('@@').slice(1)) {
    const [head = '', ...files] = entry
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const [hash = '', ...words] = head.split(' ');
    const subject = words.join(' ');
    // "ignore/walk: …", "fix(query-builder): …": the area prefix names the folder, which would give the answer away.
    const cleaned = subject
      .replace(/\s*\(#\d+\)\s*$/, '')
      .replace(/^[\w,/ -]{1,40}(\([^)]*\))?!?:\s+/, '')
      .trim();
    if (NOISE.test(subject) || cleaned.split(/\s+/).length < 4) continue;
    const sources = files.filter((file) => SOURCE.test(file) && !TEST.test(file));
    if (sources.length < 1 || sources.length > 2 || files.length > 6 || !sources.every((file) => existing.has(file))) continue;
    questions.push({ question: cleaned, files: sources, commit: hash });
    if (questions.length >= count) break;
  }
  return questions;
}
