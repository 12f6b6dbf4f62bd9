import { strict as assert } from 'node:assert';
import type { FileSummaries } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

describe('get_file_summaries', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
    root.write({
      'src/index.ts': '/** Entry point. */\nexport function main(): void {}\n',
      'src/util/strings.ts': 'export const pad = (s: string) => s;\n',
      'scripts/build.py': '"""Builds things."""\ndef build():\n    pass\n',
      'README.md': '# Title\n\n## Usage\n',
      'notes.txt': 'first\nsecond\n',
    });
  });
  afterEach(() => root.cleanup());

  const summarise = async (args: Record<string, unknown>, options = {}) =>
    (await openFileTools(root.path, options)).invoke<FileSummaries>('get_file_summaries', args);

  it('summarises every text file under a folder in stable path order', async () => {
    const result = await summarise({ path: '.' });
    assert.equal(result.kind, 'file-summaries');
    assert.equal(result.root, '.');
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['README.md', 'notes.txt', 'scripts/build.py', 'src/index.ts', 'src/util/strings.ts'],
    );
    assert.equal(result.totalFiles, 5);
    assert.equal(result.truncated, false);
    const index = result.files.find((f) => f.path === 'src/index.ts')!;
    assert.deepEqual(index, {
      path: 'src/index.ts',
      size: Buffer.byteLength('/** Entry point. */\nexport function main(): void {}\n'),
      lines: 2,
      language: 'typescript',
      summary: 'Entry point.\nexport function main(): void {}',
    });
    assert.equal(result.files.find((f) => f.path === 'README.md')!.summary, '# Title\n## Usage');
    assert.equal(result.files.find((f) => f.path === 'notes.txt')!.summary, 'first\nsecond');
  });

  it('summarises a sub-folder or a single file', async () => {
    const folder = await summarise({ path: 'src' });
    assert.equal(folder.root, 'src');
    assert.deepEqual(
      folder.files.map((f) => f.path),
      ['src/index.ts', 'src/util/strings.ts'],
    );
    const single = await summarise({ path: 'scripts/build.py' });
    assert.deepEqual(
      single.files.map((f) => [f.path, f.language, f.summary]),
      [['scripts/build.py', 'python', 'Builds things.\ndef build():']],
    );
  });

  it('filters with a glob', async () => {
    assert.deepEqual(
      (await summarise({ path: '.', glob: '**/*.ts' })).files.map((f) => f.path),
      ['src/index.ts', 'src/util/strings.ts'],
    );
    assert.deepEqual(
      (await summarise({ path: '.', glob: '*.py,*.md' })).files.map((f) => f.path),
      ['README.md', 'scripts/build.py'],
    );
    assert.deepEqual(
      (await summarise({ path: 'src', glob: 'util/*' })).files.map((f) => f.path),
      ['src/util/strings.ts'],
    );
  });

  it('caps at max_files, reporting the total and truncation', async () => {
    const result = await summarise({ path: '.', max_files: 2 });
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['README.md', 'notes.txt'],
    );
    assert.equal(result.totalFiles, 5);
    assert.equal(result.truncated, true);
  });

  it('leaves out binary files found by content, without counting them', async () => {
    root.write({ 'blob.dat2': Buffer.from([1, 2, 0, 3]) });
    const result = await summarise({ path: '.' });
    assert.ok(!result.files.some((f) => f.path === 'blob.dat2'));
    assert.equal(result.totalFiles, 5);
    assert.equal(result.truncated, false);
  });

  it('reads only a prefix of large files and estimates their line count', async () => {
    const line = 'const x = 1; // padding padding padding padding\n';
    root.write({ 'big.ts': `/** Big. */\nexport class Big {}\n${line.repeat(4000)}` });
    const big = (await summarise({ path: 'big.ts' })).files[0]!;
    assert.equal(big.linesEstimated, true);
    assert.ok(Math.abs(big.lines - 4002) < 100, `estimated ${big.lines}`);
    assert.ok(big.summary.startsWith('Big.\nexport class Big'));
  });

  it('stops at the per-call byte budget', async () => {
    const result = await summarise({ path: '.' }, { maxTotalBytes: 200 });
    assert.ok(result.files.length > 0 && result.files.length < 5);
    assert.equal(result.truncated, true);
  });

  it('gives the same answer with asynchronous I/O', async () => {
    const blocking = await summarise({ path: '.' });
    const nonBlocking = await summarise({ path: '.' }, { ioSliceMs: 0 });
    assert.deepEqual(nonBlocking, blocking);
  });

  it('fails clearly for a path outside the workspace', async () => {
    const error = await rejectionOf(summarise({ path: '../' }));
    assert.match(error.message, /outside the workspace/);
  });

  it('rejects when the signal is already aborted', async () => {
    const tools = await openFileTools(root.path);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(tools.invoke('get_file_summaries', { path: '.' }, controller.signal));
    assert.equal(error.name, 'AbortError');
  });
});
