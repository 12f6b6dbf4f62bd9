import { join } from 'node:path';
import { CodebaseIndex } from '../../src/core/codebaseIndex/codebaseIndex';
import { questionTerms } from '../../src/core/codebaseIndex/search/questionTerms';
import { Workspace } from '../../src/core/workspace';
import { walkWorkspace } from '../../src/core/workspace/walkWorkspace';
import { evalReposDir, type EvalQuestion, type EvalRepo } from './evalRepos';
import { minedQuestions } from './minedQuestions';
import { WholeFileBm25 } from './wholeFileBm25';

/**
 * The rankings compared: names alone, BM25 alone, BM25 with the exact-name bonus, that with the file graph, and
 * everything (the proximity of the question's words in the best candidates too: what the agent gets).
 */
export const METHODS = ['symbols', 'bm25', 'bm25+names', 'bm25+names+graph', '+proximity', 'whole-file bm25'] as const;
export type Method = (typeof METHODS)[number];

export interface Accuracy {
  at1: number;
  at5: number;
  total: number;
}

export interface RepoRetrieval {
  repo: string;
  files: number;
  written: Record<Method, Accuracy>;
  mined: Record<Method, Accuracy>;
  /** Written questions whose answer the full ranking missed in its top 5, for reading. */
  misses: string[];
}

export const MINED_QUESTIONS = 20;

export async function evaluateRetrieval(repo: EvalRepo, log: (line: string) => void): Promise<RepoRetrieval> {
  const dir = repo.dir!;
  const workspace = await Workspace.open(dir);
  const index = new CodebaseIndex({ workspace, storeDir: join(evalReposDir(), '..', 'eval-index') });
  const status = await index.update();
  log(`${repo.repo}: ${status.indexedFiles} files, ${status.symbols} symbols`);
  const baseline = new WholeFileBm25(dir, await walkedPaths(workspace));
  const mined = minedQuestions(dir, repo.commit, repo.historyQuestions ?? MINED_QUESTIONS);
  const misses: string[] = [];
  const written = await score(index, baseline, repo.questions, (question, ranked) =>
    misses.push(`${question.question} → expected ${question.files.join(' or ')}, got ${ranked.slice(0, 3).join(', ')}`),
  );
  const minedScore = await score(index, baseline, mined);
  await index.dispose();
  return { repo: repo.repo, files: status.indexedFiles, written, mined: minedScore, misses };
}

async function score(
  index: CodebaseIndex,
  baseline: WholeFileBm25,
  questions: EvalQuestion[],
  onMiss?: (q: EvalQuestion, ranked: string[]) => void,
): Promise<Record<Method, Accuracy>> {
  const result = Object.fromEntries(METHODS.map((method) => [method, { at1: 0, at5: 0, total: questions.length }])) as Record<Method, Accuracy>;
  for (const question of questions) {
    for (const method of METHODS) {
      const ranked = await rank(index, baseline, method, question.question);
      const hit = ranked.findIndex((path) => question.files.includes(path));
      if (hit === 0) result[method].at1++;
      if (hit >= 0 && hit < 5) result[method].at5++;
      if (method === '+proximity' && (hit < 0 || hit >= 5)) onMiss?.(question, ranked);
    }
  }
  return result;
}

async function rank(index: CodebaseIndex, baseline: WholeFileBm25, method: Method, question: string): Promise<string[]> {
  switch (method) {
    case 'symbols': {
      const { identifiers, capitalised } = questionTerms(question);
      const paths: string[] = [];
      for (const name of [...identifiers, ...capitalised]) for (const match of await index.findSymbol(name, { limit: 5 })) paths.push(match.path);
      return [...new Set(paths)];
    }
    case 'bm25':
      return paths(await index.searchCode(question, { limit: 5, useGraph: false, useExactNames: false, withLines: false, useProximity: false }));
    case 'bm25+names':
      return paths(await index.searchCode(question, { limit: 5, useGraph: false, withLines: false, useProximity: false }));
    case 'bm25+names+graph':
      return paths(await index.searchCode(question, { limit: 5, withLines: false, useProximity: false }));
    case '+proximity':
      return paths(await index.searchCode(question, { limit: 5, withLines: false }));
    case 'whole-file bm25':
      return baseline.rank(question, 5);
  }
}

function paths(hits: Array<{ path: string }>): string[] {
  return hits.map((hit) => hit.path);
}

/** Every file the index walks: the baseline searches the same set, so the comparison is fair. */
async function walkedPaths(workspace: Workspace): Promise<string[]> {
  const walk = await walkWorkspace(workspace, { absolute: workspace.root, relative: '.', root: workspace.root });
  return walk.entries.map((entry) => entry.relative);
}
