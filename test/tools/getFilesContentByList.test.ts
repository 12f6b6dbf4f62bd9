import { strict as assert } from 'node:assert';
import type { FileBundle } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

describe('get_files_content_by_list', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
    root.write({ 'src/a.ts': 'export const a = 1;\n', 'src/b.py': 'b = 2\n', 'docs/c.md': '# C\n' });
  });
  afterEach(() => root.cleanup());

  const read = async (file_paths: unknown, options = {}) =>
    (await openFileTools(root.path, options)).invoke<FileBundle>('get_files_content_by_list', { file_paths });

  it('reads an array of paths in the order given, with languages', async () => {
    const bundle = await read(['src/b.py', 'src/a.ts']);
    assert.deepEqual(bundle, {
      kind: 'file-bundle',
      files: [
        { path: 'src/b.py', language: 'python', content: 'b = 2\n' },
        { path: 'src/a.ts', language: 'typescript', content: 'export const a = 1;\n' },
      ],
      missing: [],
    });
  });

  it('accepts the list formats models write: commas, lines, bullets, numbers, back-ticks, fences', async () => {
    const expected = ['src/a.ts', 'src/b.py', 'docs/c.md'];
    for (const text of [
      'src/a.ts, src/b.py, docs/c.md',
      'src/a.ts\nsrc/b.py\n\ndocs/c.md\n',
      '- src/a.ts\n- src/b.py\n* docs/c.md',
      '1. `src/a.ts`\n2. "src/b.py"\n3. docs/c.md',
      '```\nsrc/a.ts\nsrc/b.py\ndocs/c.md\n```',
    ]) {
      const bundle = await read(text);
      assert.deepEqual(
        bundle.files.map((f) => f.path),
        expected,
        text,
      );
      assert.deepEqual(bundle.missing, [], text);
    }
  });

  it('reports missing, outside and folder paths with reasons instead of failing', async () => {
    const bundle = await read('src/a.ts\nnope.ts\n../outside.txt\nsrc');
    assert.deepEqual(
      bundle.files.map((f) => f.path),
      ['src/a.ts'],
    );
    assert.deepEqual(
      bundle.missing.map((m) => m.path),
      ['nope.ts', '../outside.txt', 'src'],
    );
    assert.match(bundle.missing[0]!.reason, /"nope\.ts" does not exist/);
    assert.match(bundle.missing[1]!.reason, /outside the workspace/);
    assert.match(bundle.missing[2]!.reason, /is a folder/);
  });

  it('deduplicates paths that name the same file', async () => {
    const bundle = await read(['src/a.ts', './src/a.ts', 'src/../src/a.ts']);
    assert.equal(bundle.files.length, 1);
  });

  it('truncates a file over the per-file cap with a marker', async () => {
    root.write({ 'big.txt': 'line\n'.repeat(1000) });
    const bundle = await read('big.txt', { maxFileBytes: 1024 });
    const file = bundle.files[0]!;
    assert.equal(file.truncated, true);
    assert.ok(file.content.endsWith('\n… [truncated by CodeWiki: file is 4.9 KB, showing the first 1 KB]'));
    assert.ok(file.content.startsWith('line\nline\n'));
  });

  it('rejects when the signal is already aborted', async () => {
    const tools = await openFileTools(root.path);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(tools.invoke('get_files_content_by_list', { file_paths: 'src/a.ts' }, controller.signal));
    assert.equal(error.name, 'AbortError');
  });
});
