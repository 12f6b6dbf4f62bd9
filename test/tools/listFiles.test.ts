import { strict as assert } from 'node:assert';
import { renderFileTree } from '../../src/core/values/renderFileValues';
import type { FileTree } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

describe('list_files', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
    root.write({ 'a.txt': 'hello', 'src/index.ts': 'x', 'src/lib/deep/d.ts': 'deep', 'src/lib/l.ts': '' });
  });
  afterEach(() => root.cleanup());

  const list = async (args: Record<string, unknown>) => (await openFileTools(root.path)).invoke<FileTree>('list_files', args);

  it('lists two levels by default, with sizes for files', async () => {
    const tree = await list({});
    assert.equal(tree.kind, 'file-tree');
    assert.equal(tree.root, '.');
    assert.equal(tree.truncated, false);
    assert.deepEqual(tree.entries, [
      { path: 'a.txt', type: 'file', depth: 1, size: 5 },
      { path: 'src', type: 'dir', depth: 1 },
      { path: 'src/index.ts', type: 'file', depth: 2, size: 1 },
      { path: 'src/lib', type: 'dir', depth: 2 },
    ]);
  });

  it('honours depth, capped at 10, and lists a sub-folder', async () => {
    assert.equal((await list({ depth: 1 })).entries.length, 2);
    assert.deepEqual(
      (await list({ depth: 4 })).entries.map((e) => e.path),
      ['a.txt', 'src', 'src/index.ts', 'src/lib', 'src/lib/deep', 'src/lib/deep/d.ts', 'src/lib/l.ts'],
    );
    root.write({ 'n/1/2/3/4/5/6/7/8/9/10/11/f.txt': '' });
    const deepest = Math.max(...(await list({ depth: 50 })).entries.map((e) => e.depth));
    assert.equal(deepest, 10);
    const sub = await list({ path: 'src/lib' });
    assert.equal(sub.root, 'src/lib');
    assert.deepEqual(
      sub.entries.map((e) => [e.path, e.depth]),
      [
        ['src/lib/deep', 1],
        ['src/lib/deep/d.ts', 2],
        ['src/lib/l.ts', 1],
      ],
    );
  });

  it('caps long listings, keeping the shallow entries', async () => {
    root.write(Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`zz/many/f${i}.txt`, ''])));
    const tree = await list({ depth: 3 });
    assert.equal(tree.truncated, true);
    assert.equal(tree.entries.length, 2000);
    for (const shallow of ['a.txt', 'src', 'zz', 'zz/many'])
      assert.ok(
        tree.entries.some((e) => e.path === shallow),
        shallow,
      );
  });

  it('renders as an indented tree', async () => {
    assert.equal(renderFileTree(await list({})), './\n  a.txt (5 bytes)\n  src/\n    index.ts (1 byte)\n    lib/');
  });

  it('fails clearly for a missing folder and honours an aborted signal', async () => {
    assert.match((await rejectionOf(list({ path: 'nope' }))).message, /"nope" does not exist/);
    const controller = new AbortController();
    controller.abort();
    const tools = await openFileTools(root.path);
    assert.equal((await rejectionOf(tools.invoke('list_files', {}, controller.signal))).name, 'AbortError');
  });
});
