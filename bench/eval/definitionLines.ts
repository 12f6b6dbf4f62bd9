import { resolve } from 'node:path';
import { citedPlaces } from '../../src/core/agent/answerPlaces';
import { CodebaseIndex } from '../../src/core/codebaseIndex/codebaseIndex';
import { pathEndsWith } from '../../src/core/workspace/pathEnds';
import { Workspace } from '../../src/core/workspace/workspace';
import type { EvalQuestion } from './evalRepos';

/** A definition a question asks for: its file and lines. */
export interface DefinitionRange {
  path: string;
  line: number;
  endLine: number;
}

/**
 * Where each question's `symbol` is defined in the files that answer it, from the code index (the saved one, so it
 * costs a read). A question without a symbol, or whose symbol the index does not find there, has none: its answers
 * are judged by their file alone.
 */
export async function definitionRanges(dir: string, storeDir: string, questions: readonly EvalQuestion[]): Promise<Map<EvalQuestion, DefinitionRange[]>> {
  const index = new CodebaseIndex({ workspace: await Workspace.open(dir), storeDir: resolve(storeDir) });
  try {
    await index.update();
    const ranges = new Map<EvalQuestion, DefinitionRange[]>();
    for (const question of questions) {
      if (!question.symbol) continue;
      // Every definition of the name, before the answering files are picked out: a common one (`New`) has many.
      const found = (await index.findSymbol(question.symbol, { limit: 10_000 })).filter((s) => s.match === 'exact' && question.files.includes(s.path));
      if (found.length)
        ranges.set(
          question,
          found.map(({ path, line, endLine }) => ({ path, line, endLine })),
        );
    }
    return ranges;
  } finally {
    await index.dispose();
  }
}

/**
 * Whether an answer's first `path:line` is inside one of the definitions: the right file at the right place, which a
 * file-level verdict cannot tell from `tree.go:135` (addRoute) for a question about `getValue`.
 */
export function citesDefinition(answer: string, ranges: readonly DefinitionRange[]): boolean {
  const first = citedPlaces(answer)[0];
  if (!first) return false;
  return ranges.some((r) => pathEndsWith(r.path, first.path) && first.line >= r.line && first.line <= r.endLine);
}
