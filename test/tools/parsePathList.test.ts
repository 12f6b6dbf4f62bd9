import { strict as assert } from 'node:assert';
import { parsePathList } from '../../src/core/tools/file/parsePathList';

describe('parsePathList', () => {
  it('splits on commas and new lines, trimming whitespace and dropping blanks', () => {
    assert.deepEqual(parsePathList(' src/a.ts, src/b.ts ,\n\n  src/c.ts  \r\nsrc/d.ts\n'), ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
  });

  it('strips bullets and numbering', () => {
    assert.deepEqual(parsePathList('- a.ts\n* b.ts\n+ c.ts\n• d.ts\n1. e.ts\n2) f.ts\n10. g.ts'), ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'g.ts']);
  });

  it('strips back-ticks and quotes, and takes the back-ticked path out of a described line', () => {
    assert.deepEqual(parsePathList('`src/a.ts`\n"src/b.ts"\n\'src/c.ts\'\n- `src/d.ts` — the entry point\n3. `src/e.ts`: tests'), [
      'src/a.ts',
      'src/b.ts',
      'src/c.ts',
      'src/d.ts',
      'src/e.ts',
    ]);
  });

  it('ignores code fences', () => {
    assert.deepEqual(parsePathList('```text\nsrc/a.ts\nsrc/b.ts\n```'), ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(parsePathList('~~~\na.ts\n~~~'), ['a.ts']);
  });

  it('keeps commas inside quotes and accepts JSON arrays', () => {
    assert.deepEqual(parsePathList('"docs/a, b.md", c.md'), ['docs/a, b.md', 'c.md']);
    assert.deepEqual(parsePathList('["a.ts", "b.ts"]'), ['a.ts', 'b.ts']);
    assert.deepEqual(parsePathList('[a.ts, b.ts]'), ['a.ts', 'b.ts']);
  });

  it('deduplicates, keeping the first occurrence order', () => {
    assert.deepEqual(parsePathList('b.ts, a.ts, `b.ts`, a.ts'), ['b.ts', 'a.ts']);
  });

  it('finds the paths in prose, as small local models write it', () => {
    assert.deepEqual(parsePathList('Sure! The key files are src/engine/core.ts and main.py.'), ['src/engine/core.ts', 'main.py']);
    assert.deepEqual(parsePathList('1. src/a.ts (the entry point)\n2. The helpers live in lib/util.js.'), ['src/a.ts', 'lib/util.js']);
    assert.deepEqual(parsePathList('I think "docs/my notes.md" matters'), ['docs/my notes.md'], 'a quoted path keeps its space');
    assert.deepEqual(parsePathList('I cannot tell which files matter.'), []);
  });

  it('returns nothing for empty input', () => {
    assert.deepEqual(parsePathList(''), []);
    assert.deepEqual(parsePathList(' \n , \n```\n```'), []);
  });
});
