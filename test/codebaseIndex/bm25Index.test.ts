import { strict as assert } from 'node:assert';
import { Bm25Index, type SavedBm25 } from '../../src/core/codebaseIndex/search/bm25Index';
import { base64, fromBase64 } from '../../src/core/codebaseIndex/store/base64Arrays';

const PARAMETERS = { k: 1.2, b: 0.75, d: 0.5 };
const BOOSTS = [2, 1];
const QUERY = ['alpha', 'beta', 'gamma', 'delta', 'omega'].map((term) => ({ term, weight: 1 }));

/** Documents of two fields (a name, a body), some words in many, some in one. */
function filled(): Bm25Index {
  const index = new Bm25Index(2);
  index.add(10, [['alpha'], ['alpha', 'beta', 'beta']]);
  index.add(11, [['beta'], ['gamma', 'alpha']]);
  index.add(12, [['gamma'], ['gamma', 'delta', 'alpha']]);
  index.add(13, [['delta'], ['beta']]);
  return index;
}

function results(index: Bm25Index) {
  return {
    found: index.search(QUERY, BOOSTS, PARAMETERS, 10).map(({ id, score, matched }) => ({ id, score: score.toFixed(9), matched })),
    frequency: QUERY.map(({ term }) => index.documentFrequency(term)),
    count: index.documentCount,
  };
}

/** The same edits on an index that was saved and loaded back and on one that never was: they must agree throughout. */
describe('text index (BM25): loaded from its saved form, it ranks and changes as the index it was saved from', () => {
  it('searches, removes, replaces and adds alike, for a word no document had any more too', () => {
    const kept = filled();
    kept.remove(13); // "delta" is left in 12 only, "beta" in 10 and 11
    kept.add(12, [['gamma'], ['gamma']]); // now no document has "delta": its list is empty when saved
    const loaded = Bm25Index.load(kept.save());
    assert.deepEqual(results(loaded), results(kept));

    for (const index of [kept, loaded]) {
      index.remove(10); // a loaded document's pairs undo its counts
      index.add(11, [['omega'], ['alpha', 'alpha']]);
      index.add(14, [['delta'], ['delta', 'beta']]); // a word saved with no document
    }
    assert.deepEqual(results(loaded), results(kept));
    assert.deepEqual(
      results(loaded).found.map(({ id }) => id),
      [14, 11, 12],
    );
    assert.deepEqual(Bm25Index.load(loaded.save()).save(), loaded.save(), 'saved again, it saves the same');
  });

  const damaged: Array<[string, (saved: SavedBm25) => void, RegExp]> = [
    [
      'a negative count that leaves the total right',
      (saved) => {
        const counts = base64Ints(saved.counts);
        saved.counts = int32([counts[0]! + counts[1]! + 1, -1, ...counts.slice(2)]);
      },
      /do not account for/,
    ],
    ['counts that do not add up', (saved) => (saved.counts = int32(new Array(saved.terms.length).fill(1))), /do not account for/],
    ['a document out of range', (saved) => (saved.postings = int32([...base64Ints(saved.postings).slice(0, -2), 99, 1])), /a document it does not have/],
    ['a term twice', (saved) => (saved.terms[1] = saved.terms[0]!), /lists a term twice/],
  ];
  for (const [damage, spoil, message] of damaged) {
    it(`refuses a saved form with ${damage}`, () => {
      const saved = filled().save();
      spoil(saved);
      assert.throws(() => Bm25Index.load(saved), message);
    });
  }
});

/** Numbers as the saved form holds them, and back. */
const int32 = (values: number[]) => base64(Int32Array.from(values));
const base64Ints = (text: string) => [...new Int32Array(fromBase64(text))];
