import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { indexTerms, STOP_WORDS, stemTerm } from '../../src/core/codebaseIndex/search/identifierWords';

/**
 * The classical baseline the index must beat: BM25 over every file's whole text (identifiers split,
 * stemmed, no fields, no names, no graph). The issue measured it at 29 of 40 in the top 5.
 */
export class WholeFileBm25 {
  private readonly search = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: indexTerms,
    processTerm: (term) => (STOP_WORDS.has(term) ? null : stemTerm(term)),
  });

  constructor(
    root: string,
    private readonly paths: string[],
  ) {
    paths.forEach((path, id) => {
      let text = '';
      try {
        text = readFileSync(join(root, path), 'utf8').slice(0, 256 * 1024);
      } catch {
        // unreadable: indexed empty
      }
      this.search.add({ id, text: `${path} ${text}` });
    });
  }

  rank(question: string, limit: number): string[] {
    return this.search
      .search(question, { combineWith: 'OR' })
      .slice(0, limit)
      .map((result) => this.paths[result.id as number]!);
  }
}
