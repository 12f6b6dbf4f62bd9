/**
 * A fielded BM25+ inverted index over numeric document ids, built for this index's sizes and for speed:
 * postings are packed typed arrays (document id, then each field's term frequency in 6 bits of one
 * integer), scoring accumulates into one array instead of building a result object per matching
 * document, and the whole index saves as a few base64 strings that load in milliseconds. MiniSearch,
 * used first, spent 17 ms ranking a long question over 5,000 files, mostly on per-result objects, and
 * 3 s re-tokenizing on every re-open.
 */

import { base64, fromBase64 } from '../store/base64Arrays';

const FIELD_BITS = 6;
const MAX_TF = (1 << FIELD_BITS) - 1;
/** The query terms one search counts: each document's matched terms are a bit mask in a 32-bit integer. */
export const MAX_QUERY_TERMS = 31;
export const MAX_FIELDS = 5;

export interface Bm25Parameters {
  k: number;
  b: number;
  /** BM25+'s lower bound for a matching term, so long documents are not pushed to zero. */
  d: number;
}

/**
 * A term of a search with its weight; one that stands for another (`standsFor`, that term's index in the query, below
 * MAX_QUERY_TERMS) is counted as it.
 */
export interface QueryTerm {
  term: string;
  weight: number;
  standsFor?: number;
}

export interface ScoredDocument {
  id: number;
  score: number;
  /** Bit i set: query term i matched. */
  matched: number;
}

/** A growable packed postings list: pairs of (document number, packed field frequencies). */
class Postings {
  data: Int32Array;
  length = 0;

  /** `data` holds `length` pairs, and perhaps room for more (a loaded list is a view of its pairs, with none). */
  constructor(data = new Int32Array(8), length = 0) {
    this.data = data;
    this.length = length;
  }

  push(doc: number, packed: number): void {
    if ((this.length + 1) * 2 > this.data.length) {
      const grown = new Int32Array(Math.max(8, this.data.length * 2)); // a loaded list of no pairs has no room at all
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length * 2] = doc;
    this.data[this.length * 2 + 1] = packed;
    this.length++;
  }

  /** Drops the entries of documents that are no longer alive. */
  keep(alive: Uint8Array): void {
    let to = 0;
    for (let from = 0; from < this.length; from++) {
      const doc = this.data[from * 2]!;
      if (!alive[doc]) continue;
      this.data[to * 2] = doc;
      this.data[to * 2 + 1] = this.data[from * 2 + 1]!;
      to++;
    }
    this.length = to;
  }
}

export interface SavedBm25 {
  fields: number;
  terms: string[];
  /** Per term, its postings' count; the postings follow each other in `postings`. */
  counts: string;
  postings: string;
  /** Per document number × field, the field's length in terms. */
  lengths: string;
  /** Per document number, the caller's id for it. */
  ids: string;
}

/**
 * Documents are numbered internally, afresh each time one is added: removing one only marks its number
 * dead (its postings are skipped, and dropped in bulk later), so replacing a changed file costs its own
 * terms, not a scan of every postings list it appears in.
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly postings: Postings[] = [];
  /** Per term and field, how many live documents have the term in that field: the field's idf. */
  private fieldDocs = new Int32Array(0);
  private lengths = new Int32Array(0);
  private alive = new Uint8Array(0);
  private externalIds = new Int32Array(0);
  private readonly numbers = new Map<number, number>();
  private nextNumber = 0;
  private dead = 0;
  private readonly totalLength: number[];
  /** Per live document number, its (term id, packed frequencies) pairs: what removing it must undo. */
  private readonly docTerms = new Map<number, Int32Array>();

  constructor(private readonly fields: number) {
    if (fields > MAX_FIELDS) throw new Error(`at most ${MAX_FIELDS} fields`);
    this.totalLength = new Array<number>(fields).fill(0);
  }

  get documentCount(): number {
    return this.numbers.size;
  }

  /** How many live documents hold the term in any one field (the most of its fields): how rare the term is. */
  documentFrequency(term: string): number {
    const termId = this.termIds.get(term);
    if (termId === undefined) return 0;
    let most = 0;
    for (let field = 0; field < this.fields; field++) most = Math.max(most, this.fieldDocs[termId * this.fields + field]!);
    return most;
  }

  has(id: number): boolean {
    return this.numbers.has(id);
  }

  /** `fieldTerms[f]` are the (processed) terms of field f, repeated as often as they occur. */
  add(id: number, fieldTerms: readonly string[][]): void {
    if (this.numbers.has(id)) this.remove(id);
    const doc = this.nextNumber++;
    this.grow(doc);
    this.numbers.set(id, doc);
    this.externalIds[doc] = id;
    this.alive[doc] = 1;
    const counts = new Map<number, number>();
    fieldTerms.forEach((terms, field) => {
      this.lengths[doc * this.fields + field] = terms.length;
      this.totalLength[field]! += terms.length;
      for (const term of terms) {
        const termId = this.termId(term);
        const packed = counts.get(termId) ?? 0;
        if (((packed >> (field * FIELD_BITS)) & MAX_TF) < MAX_TF) counts.set(termId, packed + (1 << (field * FIELD_BITS)));
      }
    });
    const pairs = new Int32Array(counts.size * 2);
    let at = 0;
    for (const [termId, packed] of counts) {
      pairs[at++] = termId;
      pairs[at++] = packed;
      this.postings[termId]!.push(doc, packed);
      this.countFields(termId, packed, 1);
    }
    this.docTerms.set(doc, pairs);
  }

  remove(id: number): void {
    const doc = this.numbers.get(id);
    if (doc === undefined) return;
    const pairs = this.docTerms.get(doc)!;
    for (let i = 0; i < pairs.length; i += 2) this.countFields(pairs[i]!, pairs[i + 1]!, -1);
    for (let field = 0; field < this.fields; field++) this.totalLength[field]! -= this.lengths[doc * this.fields + field]!;
    this.alive[doc] = 0;
    this.docTerms.delete(doc);
    this.numbers.delete(id);
    if (++this.dead > Math.max(1_000, this.numbers.size / 4)) this.dropDead();
  }

  /**
   * The best `limit` documents for the weighted query terms: per field, BM25+ with the field's own idf and
   * length normalisation, times the field's boost and the term's weight, summed; then times the number of
   * query terms the document matched (a coordination factor, as MiniSearch applies: a file that matches
   * four words of a question beats one that matches one word often), where a term that stands for another counts as
   * that one, and the terms that stand for one add the best of their scores.
   */
  search(query: ReadonlyArray<QueryTerm>, boosts: readonly number[], parameters: Bm25Parameters, limit: number): ScoredDocument[] {
    const documents = this.numbers.size;
    if (documents === 0) return [];
    const { k, b, d } = parameters;
    const average = this.totalLength.map((total) => Math.max(1, total / documents));
    const scores = new Float64Array(this.nextNumber);
    const matched = new Int32Array(this.nextNumber);
    const touched: number[] = [];
    // Bit i of a document's mask says it matched query term i (TextIndex.query keeps a longer query's rarest terms).
    // A term that stands for another adds its best for a document, not its sum: a file with `cache` and `memo` has the
    // one idea of "remembered" once, as a file that says it does.
    const standingIn = new Map<number, Map<number, number>>();
    query.slice(0, MAX_QUERY_TERMS).forEach(({ term, weight, standsFor }, queryIndex) => {
      const termId = this.termIds.get(term);
      if (termId === undefined) return;
      const list = this.postings[termId]!;
      const idf = Array.from({ length: this.fields }, (_, field) => {
        const n = this.fieldDocs[termId * this.fields + field]!;
        return n === 0 ? 0 : Math.log(1 + (documents - n + 0.5) / (n + 0.5));
      });
      for (let i = 0; i < list.length; i++) {
        const doc = list.data[i * 2]!;
        if (!this.alive[doc]) continue;
        const packed = list.data[i * 2 + 1]!;
        let score = 0;
        for (let field = 0; field < this.fields; field++) {
          const tf = (packed >> (field * FIELD_BITS)) & MAX_TF;
          if (tf === 0) continue;
          const norm = 1 - b + (b * this.lengths[doc * this.fields + field]!) / average[field]!;
          score += boosts[field]! * idf[field]! * (d + (tf * (k + 1)) / (tf + k * norm));
        }
        if (matched[doc] === 0) touched.push(doc);
        matched[doc]! |= 1 << queryIndex;
        if (standsFor === undefined) scores[doc]! += score * weight;
        else {
          const best = standingIn.get(standsFor) ?? standingIn.set(standsFor, new Map()).get(standsFor)!;
          best.set(doc, Math.max(best.get(doc) ?? 0, score * weight));
        }
      }
    });
    for (const best of standingIn.values()) for (const [doc, score] of best) scores[doc]! += score;
    const counted = coordinationSlots(query.slice(0, MAX_QUERY_TERMS));
    for (const doc of touched) scores[doc]! *= bitCount(counted(matched[doc]!));
    return topDocuments(touched, scores, matched, limit).map((hit) => ({ ...hit, id: this.externalIds[hit.id]! }));
  }

  /** Live documents renumbered densely, in the order the saved form lists them. */
  save(): SavedBm25 {
    if (this.dead) this.dropDead();
    const renumber = new Int32Array(this.nextNumber).fill(-1);
    const ids: number[] = [];
    const lengths = new Int32Array(this.numbers.size * this.fields);
    for (let doc = 0; doc < this.nextNumber; doc++) {
      if (!this.alive[doc]) continue;
      renumber[doc] = ids.length;
      lengths.set(this.lengths.subarray(doc * this.fields, (doc + 1) * this.fields), ids.length * this.fields);
      ids.push(this.externalIds[doc]!);
    }
    const counts = new Int32Array(this.terms.length);
    let total = 0;
    this.postings.forEach((list, termId) => {
      counts[termId] = list.length;
      total += list.length;
    });
    const postings = new Int32Array(total * 2);
    let at = 0;
    for (const list of this.postings) {
      for (let i = 0; i < list.length; i++) {
        postings[at++] = renumber[list.data[i * 2]!]!;
        postings[at++] = list.data[i * 2 + 1]!;
      }
    }
    return {
      fields: this.fields,
      terms: [...this.terms],
      counts: base64(counts),
      postings: base64(postings),
      lengths: base64(lengths),
      ids: base64(Int32Array.from(ids)),
    };
  }

  static load(saved: SavedBm25): Bm25Index {
    const index = new Bm25Index(saved.fields);
    const counts = new Int32Array(fromBase64(saved.counts));
    const postings = new Int32Array(fromBase64(saved.postings));
    const ids = new Int32Array(fromBase64(saved.ids));
    index.grow(Math.max(0, ids.length - 1));
    index.lengths.set(new Int32Array(fromBase64(saved.lengths)));
    ids.forEach((id, doc) => {
      index.numbers.set(id, doc);
      index.externalIds[doc] = id;
      index.alive[doc] = 1;
      for (let field = 0; field < index.fields; field++) index.totalLength[field]! += index.lengths[doc * index.fields + field]!;
    });
    index.nextNumber = ids.length;
    // The lists and each document's pairs are views into two arrays of the saved size, not lists grown pair by pair
    // and a JS array per document: hashicorp/terraform's text index (5,400 files, 38,000 terms) loads in 45–65 ms
    // instead of 110–160. A list that grows later moves into an array of its own; the two stay as long as the index,
    // about one more copy of the saved postings, as the lists' room to grow took before.
    const problem = postingsProblem(saved.terms, counts, postings, ids.length);
    if (problem) throw new Error(`the saved text index ${problem}`);
    const pairsOf = pairStarts(postings, ids.length);
    const byDoc = new Int32Array(postings.length);
    const filled = pairsOf.slice(0, ids.length);
    let at = 0;
    for (let termId = 0; termId < saved.terms.length; termId++) {
      const count = counts[termId]!;
      index.termId(saved.terms[termId]!, new Postings(postings.subarray(at, at + count * 2), count));
      for (const end = at + count * 2; at < end; at += 2) {
        const doc = postings[at]!;
        const packed = postings[at + 1]!;
        index.countFields(termId, packed, 1);
        byDoc[filled[doc]!++] = termId;
        byDoc[filled[doc]!++] = packed;
      }
    }
    for (let doc = 0; doc < ids.length; doc++) index.docTerms.set(doc, byDoc.subarray(pairsOf[doc]!, pairsOf[doc + 1]!));
    return index;
  }

  private countFields(termId: number, packed: number, change: 1 | -1): void {
    for (let field = 0; field < this.fields; field++) if ((packed >> (field * FIELD_BITS)) & MAX_TF) this.fieldDocs[termId * this.fields + field]! += change;
  }

  private dropDead(): void {
    for (const list of this.postings) list.keep(this.alive);
    this.dead = 0;
  }

  /** The term's id; a new term is given one, and `postings` (an empty list unless the term is being loaded). */
  private termId(term: string, postings?: Postings): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.postings.push(postings ?? new Postings());
      if ((id + 1) * this.fields > this.fieldDocs.length) {
        const grown = new Int32Array(Math.max((id + 1) * this.fields, this.fieldDocs.length * 2));
        grown.set(this.fieldDocs);
        this.fieldDocs = grown;
      }
    }
    return id;
  }

  /** Room for document number `doc` in the per-document arrays. */
  private grow(doc: number): void {
    if (doc < this.alive.length) return;
    const size = Math.max(doc + 1, this.alive.length * 2, 64);
    const lengths = new Int32Array(size * this.fields);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const alive = new Uint8Array(size);
    alive.set(this.alive);
    this.alive = alive;
    const externalIds = new Int32Array(size);
    externalIds.set(this.externalIds);
    this.externalIds = externalIds;
  }
}

/**
 * The coordination factor's count of a document's matched terms: a term that stands for another counts as that one,
 * so a file that has two code words for one plain word of the question (`cache` and `memo` for "remembered") counts
 * one match for them, as it would for the word itself.
 */
function coordinationSlots(query: ReadonlyArray<QueryTerm>): (matched: number) => number {
  if (query.every((term) => term.standsFor === undefined)) return (matched) => matched;
  return (matched) => {
    let slots = 0;
    for (let bits = matched; bits; bits &= bits - 1) {
      const index = 31 - Math.clz32(bits & -bits);
      slots |= 1 << (query[index]!.standsFor ?? index);
    }
    return slots;
  };
}

function bitCount(value: number): number {
  let count = 0;
  for (let bits = value; bits; bits &= bits - 1) count++;
  return count;
}

/** The `limit` best of the touched documents, best first, ties by id so results never depend on timing. */
function topDocuments(touched: number[], scores: Float64Array, matched: Int32Array, limit: number): ScoredDocument[] {
  touched.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return touched.slice(0, limit).map((id) => ({ id, score: scores[id]!, matched: matched[id]! }));
}

/** What makes saved postings unusable, checked before they are cut into views: a term twice, counts that do not add up, a document out of range. */
function postingsProblem(terms: readonly string[], counts: Int32Array, postings: Int32Array, docs: number): string | undefined {
  if (new Set(terms).size !== terms.length) return 'lists a term twice';
  if (counts.length !== terms.length) return 'has postings its terms do not account for';
  let total = 0;
  for (const count of counts) {
    if (count < 0) return 'has postings its terms do not account for';
    total += count;
  }
  if (total * 2 !== postings.length) return 'has postings its terms do not account for';
  for (let at = 0; at < postings.length; at += 2) if (postings[at]! < 0 || postings[at]! >= docs) return 'names a document it does not have';
  return undefined;
}

/** Where each document's (term, frequencies) pairs start in one array of them all, by document number; one entry more for the end. */
function pairStarts(postings: Int32Array, docs: number): Int32Array {
  const starts = new Int32Array(docs + 1);
  for (let at = 0; at < postings.length; at += 2) starts[postings[at]! + 1]! += 2;
  for (let doc = 0; doc < docs; doc++) starts[doc + 1]! += starts[doc]!;
  return starts;
}
