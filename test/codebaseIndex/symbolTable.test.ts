import { strict as assert } from 'node:assert';
import type { SymbolDef } from '../../src/core/codebaseIndex/codeIndexTypes';
import { editDistance, SymbolTable } from '../../src/core/codebaseIndex/search/symbolTable';

/** The whole table, every cell: the distance editDistance computes only near the diagonal. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Every pair of words of the letters a and b only, up to 6 letters long against up to 3 more or fewer (86,689 pairs):
 * two letters make many near spellings, swaps and repeats, where a cell read from outside the band shows.
 */
function wordPairs(): Array<[string, string]> {
  const words = (length: number) => Array.from({ length: 2 ** length }, (_, bits) => Array.from({ length }, (_, at) => 'ab'[(bits >> at) & 1]).join(''));
  const pairs: Array<[string, string]> = [];
  for (let length = 0; length <= 6; length++) {
    for (let other = Math.max(0, length - 3); other <= length + 3; other++) {
      for (const a of words(length)) for (const b of words(other)) pairs.push([a, b]);
    }
  }
  return pairs;
}

const symbol = (name: string, line: number): SymbolDef => ({ name, kind: 'function', line, endLine: line, signature: `function ${name}()` });

describe('code index: names by spelling', () => {
  it('editDistance is the full table’s distance whenever that is at most the limit, and past the limit otherwise', () => {
    let near = 0;
    for (const [a, b] of wordPairs()) {
      const full = fullDistance(a, b);
      for (const max of [0, 1, 2, 3]) {
        const found = editDistance(a, b, max);
        // assert.equal per pair would make a failure message of 70,000 lines; one line names the first wrong pair.
        if (full <= max ? found !== full : found <= max) assert.fail(`"${a}" / "${b}", max ${max}: ${found}, the full table says ${full}`);
      }
      if (full <= 2) near++;
    }
    assert.ok(near > 10_000, `enough pairs within 2 to mean something: ${near}`);
  });

  it('looks a name up exactly, in another case, as part of a longer name, then by a near spelling', () => {
    const table = new SymbolTable();
    table.add(0, [symbol('get_file_summary', 1), symbol('tokenize', 5), symbol('parseArgs', 9), symbol('reparseAll', 12)]);
    table.add(1, [symbol('Tokenizer', 3)]);
    const names = (query: string) => table.lookup(query, 10).map((found) => `${found.match}:${found.name}`);
    assert.deepEqual(names('tokenize'), ['exact:tokenize']);
    assert.deepEqual(names('TOKENIZE'), ['case:tokenize']);
    assert.deepEqual(names('parse'), ['partial:parseArgs', 'partial:reparseAll'], 'a name that starts with the query first');
    assert.deepEqual(names('get_file_sumary'), ['fuzzy:get_file_summary'], 'a letter left out');
    assert.deepEqual(names('tokneize'), ['fuzzy:tokenize', 'fuzzy:Tokenizer'], 'two letters swapped: one edit, then two');
    assert.deepEqual(names('tukxnizx'), [], 'three edits away: nothing');
  });
});
