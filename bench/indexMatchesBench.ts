import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { CodebaseIndex } from '../src/core/codebaseIndex/codebaseIndex';
import type { QuestionContextOptions } from '../src/core/codebaseIndex/codeIndexTypes';
import { Workspace } from '../src/core/workspace/workspace';
import { type BenchRow, fmt } from './benchTable';
import { evalReposDir, loadEvalRepos, type EvalQuestion } from './eval/evalRepos';
import { minedQuestions } from './eval/minedQuestions';
import { MINED_QUESTIONS } from './eval/retrievalEval';

interface Tally {
  tokens: number;
  listed: number;
  first: number;
  /** Questions that name a definition (`symbol`) and whose right file is listed; of them, the entry's first line is it. */
  withDefinition: number;
  definitionFirst: number;
}

/**
 * The list of matches a where-is question hands the model, as it is computed before the model's first word on every
 * question (the prompt cache cannot keep it): its size in the full and the compact form (small models), whether
 * the right file is in it and first, and whether the right file's entry begins with the definition the question asks
 * for, over bench/eval's written questions on the evaluation clones that are present. Then the same entries for the
 * questions mined from history: whether one begins with a definition the commit changed.
 */
export async function benchIndexMatches(): Promise<BenchRow[]> {
  const ready = loadEvalRepos().filter((repo) => repo.dir);
  const repos = ready.filter((repo) => repo.questions.length); // not those measured on their history alone
  if (!repos.length) return [{ figure: 'index matches for where-is questions', result: 'skipped: no evaluation clones (see npm run eval:agent)', goal: '—' }];
  const tally = (): Tally => ({ tokens: 0, listed: 0, first: 0, withDefinition: 0, definitionFirst: 0 });
  const tallies: Record<NonNullable<QuestionContextOptions['detail']>, Tally> = { full: tally(), compact: tally() };
  let questions = 0;
  const history = { entries: 0, changed: 0 };
  for (const repo of ready) {
    const index = new CodebaseIndex({ workspace: await Workspace.open(repo.dir!), storeDir: resolve(evalReposDir(), '..', 'eval-index') });
    await index.update();
    for (const question of repo.questions) {
      questions++;
      for (const detail of ['full', 'compact'] as const) {
        const context = await index.questionContext(question.question, { detail });
        const entries = context.text.split(/\n(?=\d+\. )/);
        const files = entries.map((entry) => /^\d+\. (\S+)/.exec(entry)?.[1] ?? '');
        const at = files.findIndex((path) => question.files.includes(path));
        const t = tallies[detail];
        t.tokens += context.tokens;
        if (at >= 0) t.listed++;
        if (at === 0) t.first++;
        if (at >= 0 && question.symbol) {
          t.withDefinition++;
          // What the line shows, without its `path:line: ` (a Java class is named like its file, which every line says).
          const firstLine = (entries[at]!.split('\n')[1] ?? '').replace(/^\s*\S+:\d+(?: \([^)]*\))?: /, '');
          if (namesWord(firstLine, question.symbol)) t.definitionFirst++;
        }
      }
    }
    for (const question of minedQuestions(repo.dir!, repo.commit, repo.historyQuestions ?? MINED_QUESTIONS)) {
      const context = await index.questionContext(question.question, { detail: 'compact' });
      for (const hit of context.hits.filter((h) => question.files.includes(h.path) && h.symbols.length)) {
        history.entries++;
        if (changedBy(repo.dir!, question, hit.path).test(hit.symbols[0]!.name)) history.changed++;
      }
    }
    await index.dispose();
  }
  const row = (detail: 'full' | 'compact', who: string): BenchRow => {
    const t = tallies[detail];
    return {
      figure: `index matches for a where-is question, ${detail} (${who}): ${questions} questions, ${repos.length} repositories`,
      result: `${fmt(t.tokens / questions, 0)} tokens on average; right file listed ${t.listed}/${questions}, first ${t.first}/${questions}; its entry begins with the definition asked for ${t.definitionFirst}/${t.withDefinition}`,
      goal: 'reported',
    };
  };
  return [
    row('full', 'large models'),
    row('compact', 'small models'),
    {
      figure: `index matches, compact, for questions mined from history (${ready.length} repositories): the right file's first definition is one the commit changed`,
      result: `${history.changed}/${history.entries} entries`,
      goal: 'reported',
    },
  ];
}

/**
 * Matches a name the commit's diff of the file says (its added and removed lines, and the hunk headers, which are git's
 * guess at the enclosing function and sometimes name the one before): a definition it changed, a little generously.
 */
function changedBy(dir: string, question: EvalQuestion, path: string): { test(name: string): boolean } {
  const diff = execFileSync('git', ['-C', dir, 'show', '--format=', '-U0', question.commit!, '--', path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const changed = diff
    .split('\n')
    .filter((line) => /^[-+@]/.test(line) && !/^(---|\+\+\+)/.test(line))
    .join('\n');
  return { test: (name) => namesWord(changed, name) };
}

/** Whether a text holds a name as a whole word: `$` counts as a word character, as in the languages that allow it. */
function namesWord(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).test(text);
}
