import { strict as assert } from 'node:assert';
import type { FileBundle } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

describe('read_file', () => {
  let root: TempFolder;
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  beforeEach(() => {
    root = makeTempFolder();
    root.write({ 'src/ten.txt': lines, 'src/crlf.txt': 'a\r\nb\r\n', 'empty.txt': '' });
  });
  afterEach(() => root.cleanup());

  const readFile = async (args: Record<string, unknown>, options = {}) => (await openFileTools(root.path, options)).invoke<FileBundle>('read_file', args);

  it('reads a whole file into a one-file bundle', async () => {
    assert.deepEqual(await readFile({ path: 'src/ten.txt' }), {
      kind: 'file-bundle',
      files: [{ path: 'src/ten.txt', language: 'text', content: lines }],
      missing: [],
    });
    assert.equal((await readFile({ path: 'empty.txt' })).files[0]!.content, '');
  });

  it('reads a 1-based inclusive line range', async () => {
    const file = (await readFile({ path: 'src/ten.txt', start_line: 3, end_line: 5 })).files[0]!;
    assert.equal(file.content, 'line 3\nline 4\nline 5\n');
    assert.equal(file.startLine, 3);
    assert.equal(file.endLine, 5);
    assert.equal((await readFile({ path: 'src/ten.txt', start_line: 9 })).files[0]!.content, 'line 9\nline 10\n');
    assert.equal((await readFile({ path: 'src/ten.txt', end_line: 1 })).files[0]!.content, 'line 1\n');
    const clamped = (await readFile({ path: 'src/ten.txt', start_line: 10, end_line: 99 })).files[0]!;
    assert.equal(clamped.content, 'line 10\n');
    assert.equal(clamped.endLine, 10);
  });

  it('rejects impossible ranges clearly', async () => {
    assert.match((await rejectionOf(readFile({ path: 'src/ten.txt', start_line: 50 }))).message, /has 10 lines; start_line 50 is past the end/);
    assert.match((await rejectionOf(readFile({ path: 'src/ten.txt', start_line: 5, end_line: 2 }))).message, /end_line \(2\) is before start_line \(5\)/);
    assert.match((await rejectionOf(readFile({ path: 'src/ten.txt', start_line: 0 }))).message, /did not match expected schema/);
  });

  it('truncates at the per-file cap on a line boundary and says where to continue', async () => {
    root.write({ 'big.txt': Array.from({ length: 400 }, (_, i) => `row ${String(i + 1).padStart(4, '0')}`).join('\n') + '\n' });
    const whole = (await readFile({ path: 'big.txt' }, { maxFileBytes: 1000 })).files[0]!;
    assert.equal(whole.truncated, true);
    assert.match(whole.content, /row 0111\n… \[truncated by CodeWiki: file is 3\.5 KB, showing the first 1000 bytes\]$/);
    const ranged = (await readFile({ path: 'big.txt', start_line: 200 }, { maxFileBytes: 100 })).files[0]!;
    assert.ok(ranged.content.startsWith('row 0200\n'));
    assert.match(ranged.content, /continue with start_line 211\]$/);
    const next = (await readFile({ path: 'big.txt', start_line: 211, end_line: 211 }, { maxFileBytes: 100 })).files[0]!;
    assert.equal(next.content, 'row 0211\n');
  });

  it('fails with clear errors for folders, missing files and escapes', async () => {
    assert.match((await rejectionOf(readFile({ path: 'src' }))).message, /"src" is a folder, not a file/);
    assert.match((await rejectionOf(readFile({ path: 'src/none.txt' }))).message, /does not exist/);
    assert.match((await rejectionOf(readFile({ path: '../../etc/passwd' }))).message, /outside the workspace/);
  });

  it('keeps CRLF line endings as they are', async () => {
    assert.equal((await readFile({ path: 'src/crlf.txt' })).files[0]!.content, 'a\r\nb\r\n');
  });

  it('rejects when the signal is already aborted', async () => {
    const tools = await openFileTools(root.path);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(tools.invoke('read_file', { path: 'src/ten.txt' }, controller.signal));
    assert.equal(error.name, 'AbortError');
  });
});
