import { strict as assert } from 'node:assert';
import type { SearchResults } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

describe('search_text', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
    root.write({
      'src/a.ts': 'const value = 1;\nfunction getValue() {\n  return value + 1;\n}\n',
      'src/b.py': 'VALUE = 2\nprint(VALUE)\n',
      'docs/notes.md': 'The value (a+b) matters.\r\nnothing here\n',
    });
  });
  afterEach(() => root.cleanup());

  const search = async (args: Record<string, unknown>, options = {}) => (await openFileTools(root.path, options)).invoke<SearchResults>('search_text', args);
  const hits = (result: SearchResults) => result.matches.map((m) => `${m.path}:${m.line}:${m.column}`);

  it('finds literal text case-insensitively with 1-based lines and columns, in path order', async () => {
    const result = await search({ query: 'value' });
    assert.equal(result.kind, 'search-results');
    assert.equal(result.query, 'value');
    assert.deepEqual(hits(result), ['docs/notes.md:1:5', 'src/a.ts:1:7', 'src/a.ts:2:13', 'src/a.ts:3:10', 'src/b.py:1:1', 'src/b.py:2:7']);
    assert.equal(result.matches[0]!.text, 'The value (a+b) matters.');
    assert.equal(result.filesSearched, 3);
    assert.equal(result.truncated, false);
  });

  it('treats regex characters literally unless regex is set', async () => {
    assert.deepEqual(hits(await search({ query: '(a+b)' })), ['docs/notes.md:1:11']);
    assert.deepEqual(hits(await search({ query: '^VALUE\\s*=', regex: true, case_sensitive: true })), ['src/b.py:1:1']);
    assert.deepEqual(hits(await search({ query: 'get\\w+\\(', regex: true })), ['src/a.ts:2:10']);
  });

  it('matches case exactly when asked', async () => {
    assert.deepEqual(hits(await search({ query: 'VALUE', case_sensitive: true })), ['src/b.py:1:1', 'src/b.py:2:7']);
  });

  it('limits to a path and a glob', async () => {
    assert.deepEqual(hits(await search({ query: 'value', path: 'src', glob: '*.py' })), ['src/b.py:1:1', 'src/b.py:2:7']);
    assert.deepEqual(hits(await search({ query: 'value', path: 'docs/notes.md' })), ['docs/notes.md:1:5']);
  });

  it('stops at max_results and reports truncation', async () => {
    const result = await search({ query: 'value', max_results: 2 });
    assert.deepEqual(hits(result), ['docs/notes.md:1:5', 'src/a.ts:1:7']);
    assert.equal(result.truncated, true);
  });

  it('shows a window around a match on a very long line', async () => {
    root.write({ 'min.txt': `${'x'.repeat(5000)}needle${'y'.repeat(5000)}` });
    const match = (await search({ query: 'needle' })).matches[0]!;
    assert.equal(match.column, 5001);
    assert.ok(match.text.length <= 302 && match.text.includes('needle'));
  });

  it('gives the same answer with asynchronous I/O', async () => {
    assert.deepEqual(await search({ query: 'value' }, { ioSliceMs: 0 }), await search({ query: 'value' }));
  });

  it('rejects an invalid regular expression with a clear error', async () => {
    const error = await rejectionOf(search({ query: 'foo(', regex: true }));
    assert.match(error.message, /Invalid regular expression "foo\(":/);
  });

  it('rejects when the signal is already aborted', async () => {
    const tools = await openFileTools(root.path);
    const controller = new AbortController();
    controller.abort();
    assert.equal((await rejectionOf(tools.invoke('search_text', { query: 'x' }, controller.signal))).name, 'AbortError');
  });
});
