import { resolve } from 'node:path';
import { CodebaseIndex } from '../src/core/codebaseIndex/codebaseIndex';
import type { QuestionContextOptions } from '../src/core/codebaseIndex/codeIndexTypes';
import { Workspace } from '../src/core/workspace/workspace';
import { type BenchRow, fmt } from './benchTable';
import { evalReposDir, loadEvalRepos } from './eval/evalRepos';

interface Tally {
  tokens: number;
  listed: number;
  first: number;
}

/**
 * The list of matches a where-is question hands the model, as it is computed before the model's first word on every
 * question (the prompt cache cannot keep it): its size in the full and the compact form (small models), and whether
 * the right file is in it and first, over bench/eval's written questions on the evaluation clones that are present.
 */
export async function benchIndexMatches(): Promise<BenchRow[]> {
  const repos = loadEvalRepos().filter((repo) => repo.dir && repo.questions.length); // not those measured on their history alone
  if (!repos.length) return [{ figure: 'index matches for where-is questions', result: 'skipped: no evaluation clones (see npm run eval:agent)', goal: '—' }];
  const tallies: Record<NonNullable<QuestionContextOptions['detail']>, Tally> = {
    full: { tokens: 0, listed: 0, first: 0 },
    compact: { tokens: 0, listed: 0, first: 0 },
  };
  let questions = 0;
  for (const repo of repos) {
    const index = new CodebaseIndex({ workspace: await Workspace.open(repo.dir!), storeDir: resolve(evalReposDir(), '..', 'eval-index') });
    await index.update();
    for (const question of repo.questions) {
      questions++;
      for (const detail of ['full', 'compact'] as const) {
        const context = await index.questionContext(question.question, { detail });
        const files = [...context.text.matchAll(/^\d+\. (\S+)/gm)].map((match) => match[1]!);
        const at = files.findIndex((path) => question.files.includes(path));
        tallies[detail].tokens += context.tokens;
        if (at >= 0) tallies[detail].listed++;
        if (at === 0) tallies[detail].first++;
      }
    }
    await index.dispose();
  }
  const row = (detail: 'full' | 'compact', who: string): BenchRow => ({
    figure: `index matches for a where-is question, ${detail} (${who}): ${questions} questions, ${repos.length} repositories`,
    result: `${fmt(tallies[detail].tokens / questions, 0)} tokens on average; right file listed ${tallies[detail].listed}/${questions}, first ${tallies[detail].first}/${questions}`,
    goal: 'reported',
  });
  return [row('full', 'large models'), row('compact', 'small models')];
}
