import type { FileFacts } from '../codeIndexTypes';
import { eachMention } from '../parsing/mentionCounts';
import { Bm25Index, MAX_QUERY_TERMS, type QueryTerm, type SavedBm25 } from './bm25Index';
import { codeStemsFor, RELATED_WEIGHT } from './codeVocabulary';
import { indexTerms, QUESTION_WORDS, STOP_WORDS, stemTerm } from './identifierWords';

/**
 * The fields of a file's document, with their weights in the ranking. A file's path and the names it
 * defines say most about what it is (Continue weights the path 10× for the same reason); doc comments
 * next; the head catches files whose meaning is in prose (READMEs, configuration); the body (the names
 * the file uses most) catches what only its code says: it lifted commit-subject questions from 7 to 12
 * of 20 in the top 5 on typeorm (bench/eval).
 */
const FIELDS = ['path', 'symbols', 'docs', 'head', 'body'] as const;
const BOOSTS = [3, 2, 1, 0.5, 0.3];
/** The body takes a file's most used names only: the cap keeps the index small and barely moves the ranking (the same top-5 counts at 300 as with every name). */
const BODY_WORDS = 300;
/**
 * Stronger length normalisation than the usual b 0.7, d 0.5: a 350 KB typings file names everything once
 * and must not outrank the short file that is about the question. Chosen on the evaluation repositories
 * (bench/eval): top-1 28 → 31 of 40 written questions, top-5 unchanged.
 */
const BM25 = { k: 1.2, b: 0.9, d: 0.2 };
const QUESTION_WORD_WEIGHT = 0.25;
const QUESTION_STEMS = new Set([...QUESTION_WORDS].map(stemTerm));

export interface TextHit {
  id: number;
  score: number;
  /** Query terms (stemmed) found in the file, for picking its best lines. */
  terms: string[];
}

/**
 * The ranked full-text side of the index: one BM25 document per file over its path tokens, definition
 * names split into words, doc comment lines, head and most used names. Documents are replaced one at a
 * time, so a changed file costs one update.
 */
export class TextIndex {
  private constructor(private readonly index: Bm25Index) {}

  static empty(): TextIndex {
    return new TextIndex(new Bm25Index(FIELDS.length));
  }

  /** From `toJSON`'s output: a re-opened index is usable at once, without tokenizing every file again. */
  static fromJSON(json: unknown): TextIndex {
    return new TextIndex(Bm25Index.load(json as SavedBm25));
  }

  toJSON(): SavedBm25 {
    return this.index.save();
  }

  get size(): number {
    return this.index.documentCount;
  }

  set(id: number, facts: FileFacts): void {
    this.index.add(id, fieldsOf(facts).map(terms));
  }

  remove(id: number): void {
    this.index.remove(id);
  }

  /** Each stem's inverse document frequency over the indexed files: what a word is worth when a file has it. */
  idf(stems: Iterable<string>): Map<string, number> {
    const documents = this.index.documentCount;
    return new Map([...stems].map((stem) => [stem, Math.log(1 + documents / (1 + this.index.documentFrequency(stem)))]));
  }

  /**
   * Ranked files for a question or a name; words like "file" or "function" weigh a quarter, and the code's words for
   * the question's plain ones ("remembered" → cache, codeVocabulary.ts) are searched too, below the question's own.
   */
  query(text: string, limit: number): TextHit[] {
    const searched = this.searchedTerms(text);
    return this.index.search(searched, BOOSTS, BM25, limit).map((hit) => ({
      id: hit.id,
      score: hit.score,
      terms: searched.filter((_, i) => hit.matched & (1 << i)).map((q) => q.term),
    }));
  }

  /** The stems `query` searches for the code's words, not the question's own: the lines a file shows weigh them less. */
  codeWordsSearched(text: string): Map<string, number> {
    return new Map(this.searchedTerms(text).flatMap((q) => (q.standsFor === undefined ? [] : [[q.term, q.weight] as const])));
  }

  /** The question's stems, each once, then the code's words for its plain ones, each standing for the stem it came from. */
  private searchedTerms(text: string): QueryTerm[] {
    const plainWords = words(text);
    const query: Array<{ term: string; weight: number; plainStem?: string }> = [];
    const seen = new Set<string>();
    for (const term of plainWords.map(stemTerm)) {
      if (seen.has(term)) continue;
      seen.add(term);
      query.push({ term, weight: QUESTION_STEMS.has(term) ? QUESTION_WORD_WEIGHT : 1 });
    }
    for (const word of plainWords) {
      for (const codeStem of codeStemsFor(word)) {
        if (seen.has(codeStem)) continue;
        seen.add(codeStem);
        query.push({ term: codeStem, weight: RELATED_WEIGHT, plainStem: stemTerm(word) });
      }
    }
    const kept = this.mostTelling(query);
    return kept.map(({ term, weight, plainStem }) => {
      const standsFor = plainStem === undefined ? -1 : kept.findIndex((q) => q.term === plainStem);
      return standsFor < 0 ? { term, weight } : { term, weight, standsFor };
    });
  }

  /**
   * A query's terms, at most as many as the search counts (MAX_QUERY_TERMS): of a longer one (a pasted stack trace or
   * paragraph), the rarest full-weight words the index has, in the query's order; words no file has (an address, a
   * line number) match nothing and go last. Before, its first words were kept, and a rare word at its end was never searched.
   */
  private mostTelling<T extends { term: string; weight: number; plainStem?: string }>(query: T[]): T[] {
    if (query.length <= MAX_QUERY_TERMS) return query;
    const rarity = (term: string) => this.index.documentFrequency(term) || Number.POSITIVE_INFINITY;
    // The code's words for the question's words go after all of the question's own, whatever their weight.
    const codeWordLast = (q: T) => (q.plainStem === undefined ? 0 : 1);
    const kept = new Set(
      [...query].sort((a, b) => codeWordLast(a) - codeWordLast(b) || b.weight - a.weight || rarity(a.term) - rarity(b.term)).slice(0, MAX_QUERY_TERMS),
    );
    return query.filter((term) => kept.has(term));
  }
}

function fieldsOf(facts: FileFacts): string[] {
  return [
    facts.path.replace(/\.[A-Za-z0-9]+$/, ''),
    facts.symbols.map((symbol) => symbol.name).join(' '),
    facts.symbols
      .map((symbol) => symbol.doc ?? '')
      .filter(Boolean)
      .join('\n'),
    facts.head,
    mostMentioned(facts.mentions, BODY_WORDS),
  ];
}

/** Index terms, stop words out, Porter-stemmed: the same processing for documents and queries. */
function terms(text: string): string[] {
  return words(text).map(stemTerm);
}

/** A text's index terms without stop words, not stemmed: the code's words for a plain one are found by its exact form. */
function words(text: string): string[] {
  return indexTerms(text).filter((term) => !STOP_WORDS.has(term));
}

/** The `count` names a file uses most, once each. */
function mostMentioned(mentions: string, count: number): string {
  return [...eachMention(mentions)]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name]) => name)
    .join(' ');
}
