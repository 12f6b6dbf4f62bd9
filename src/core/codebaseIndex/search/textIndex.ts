import MiniSearch from 'minisearch';
import type { FileFacts } from '../codeIndexTypes';
import { indexTerms, QUESTION_WORDS, STOP_WORDS, stemTerm } from './identifierWords';

/** One document per file: what a ranked search looks at. */
interface FileDocument {
  id: number;
  path: string;
  symbols: string;
  docs: string;
  head: string;
  body: string;
}

/**
 * Field weights of the BM25 ranking. A file's path and the names it defines say most about what it is
 * (Continue weights the path 10× for the same reason); doc comments next; the head catches files whose
 * meaning is in prose (READMEs, configuration); the body (every word the file uses, once) catches what
 * only its code says: it lifted commit-subject questions from 7 to 12 of 20 in the top 5 on typeorm.
 */
const BOOST: Record<string, number> = { path: 3, symbols: 2, docs: 1, head: 0.5, body: 0.3 };
/**
 * Stronger length normalisation than MiniSearch's default (b 0.7, d 0.5): a 350 KB typings file names
 * everything once and must not outrank the short file that is about the question. Chosen on the
 * evaluation repositories (bench/eval): top-1 28 → 31 of 40 written questions, top-5 unchanged.
 */
const BM25 = { k: 1.2, b: 0.9, d: 0.2 };
const QUESTION_WORD_WEIGHT = 0.25;
/** boostTerm sees terms after processTerm, so the question words are compared as stems. */
const QUESTION_STEMS = new Set([...QUESTION_WORDS].map(stemTerm));

export interface TextHit {
  id: number;
  score: number;
  /** Query terms (stemmed) found in the file, for picking its best lines. */
  terms: string[];
}

/**
 * A BM25 (MiniSearch's BM25+) index over the files' path tokens, symbol names split into words, doc
 * comment lines and heads. Documents are replaced one at a time, so a changed file costs one update.
 */
export class TextIndex {
  private readonly search = new MiniSearch<FileDocument>({
    fields: ['path', 'symbols', 'docs', 'head', 'body'],
    tokenize: indexTerms,
    processTerm: (term) => (STOP_WORDS.has(term) ? null : stemTerm(term)),
  });

  get size(): number {
    return this.search.documentCount;
  }

  set(id: number, facts: FileFacts): void {
    if (this.search.has(id)) this.search.discard(id);
    this.search.add(documentOf(id, facts));
  }

  remove(id: number): void {
    if (this.search.has(id)) this.search.discard(id);
  }

  /** Ranked files for a question or a name; words like "file" or "function" weigh a quarter. */
  query(text: string, limit: number): TextHit[] {
    if (this.search.documentCount === 0) return [];
    const results = this.search.search(text, {
      boost: BOOST,
      bm25: BM25,
      combineWith: 'OR',
      prefix: (term) => term.length >= 6,
      boostTerm: (term) => (QUESTION_STEMS.has(term) ? QUESTION_WORD_WEIGHT : 1),
    });
    return results.slice(0, limit).map((result) => ({ id: result.id as number, score: result.score, terms: result.terms }));
  }

  /** Discarded documents leave holes MiniSearch fills only on vacuum; a long session of edits calls this now and then. */
  compact(): Promise<void> {
    return this.search.vacuum();
  }
}

function documentOf(id: number, facts: FileFacts): FileDocument {
  const withoutExtension = facts.path.replace(/\.[A-Za-z0-9]+$/, '');
  return {
    id,
    path: withoutExtension,
    symbols: facts.symbols.map((symbol) => symbol.name).join(' '),
    docs: facts.symbols.map((symbol) => symbol.doc ?? '').filter(Boolean).join('\n'),
    head: facts.head,
    body: facts.mentions.replace(/\*\d+/g, ''),
  };
}
