import { strict as assert } from 'node:assert';
import { IndexFixture } from './indexHarness';

/** Forty words every module says, and one that only the ledger does. */
const COMMON = Array.from({ length: 40 }, (_, i) => `common${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}word`);
const FILES = {
  ...Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`module${n}.ts`, `// ${COMMON.join(' ')}\nexport function handler${n}() {}\n`])),
  'ledger.ts': '// Settles every zanzibar transfer.\nexport function settle() {}\n',
};

describe('code index: a long query', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(FILES)));
  afterEach(() => fx.close());

  it('searches its rarest words when it has more than a search counts, wherever they are in it', async () => {
    const index = await fx.open();
    await index.update();
    // Forty words no file has (a stack trace's addresses) do not take the place of the one that only the ledger has.
    const absent = Array.from({ length: 40 }, (_, i) => `absent${i}x`).join(' ');
    const hits = await index.searchCode(`${absent} ${COMMON.join(' ')} zanzibar`, { limit: 10, withLines: false });
    // The modules match thirty words each and come first; the ledger matches the one word no other file has.
    assert.ok(
      hits.some((hit) => hit.path === 'ledger.ts'),
      JSON.stringify(hits.map((h) => h.path)),
    );
  });
});
