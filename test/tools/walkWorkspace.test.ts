import { strict as assert } from 'node:assert';
import type { FileTree } from '../../src/core/values/toolValues';
import { walkWorkspace } from '../../src/core/workspace/walkWorkspace';
import { Workspace } from '../../src/core/workspace/workspace';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from './helpers/tempWorkspace';

/** The walker behind every file tool, observed through list_files and walkWorkspace's result. */
describe('workspace walk', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
  });
  afterEach(() => root.cleanup());

  async function listedPaths(options: Record<string, unknown> = {}): Promise<string[]> {
    const tools = await openFileTools(root.path);
    const tree = await tools.invoke<FileTree>('list_files', { depth: 10, ...options });
    return tree.entries.filter((e) => e.type === 'file').map((e) => e.path);
  }

  it('respects the root .gitignore, including folder patterns and negation', async () => {
    root.write({
      '.gitignore': '*.log\nbuild-output/\n!keep.log\n',
      'a.ts': '',
      'debug.log': '',
      'keep.log': '',
      'build-output/x.ts': '',
    });
    assert.deepEqual(await listedPaths(), ['.gitignore', 'a.ts', 'keep.log']);
  });

  it('respects nested .gitignore files, deeper ones overriding shallower ones', async () => {
    root.write({
      '.gitignore': '*.tmp\n',
      'pkg/.gitignore': 'generated/\n!important.tmp\n',
      'pkg/generated/g.ts': '',
      'pkg/important.tmp': '',
      'pkg/other.tmp': '',
      'pkg/src/index.ts': '',
      'other/generated/kept.ts': '',
    });
    assert.deepEqual(await listedPaths(), ['.gitignore', 'other/generated/kept.ts', 'pkg/.gitignore', 'pkg/important.tmp', 'pkg/src/index.ts']);
  });

  it('applies .gitignore files above the folder being listed', async () => {
    root.write({ '.gitignore': '*.gen.ts\n', 'pkg/a.ts': '', 'pkg/a.gen.ts': '' });
    assert.deepEqual(await listedPaths({ path: 'pkg' }), ['pkg/a.ts']);
  });

  it('skips the default ignore list: dependencies, build output, VCS folders, lockfiles, minified files', async () => {
    root.write({
      'src/index.ts': '',
      'node_modules/lib/index.js': '',
      'dist/out.js': '',
      'out/x.js': '',
      'build/x.js': '',
      'coverage/lcov.info': '',
      '.next/x.js': '',
      'target/x.rs': '',
      '__pycache__/x.pyc': '',
      '.venv/lib.py': '',
      '.git/HEAD': '',
      '.hg/x': '',
      '.svn/x': '',
      'package-lock.json': '{}',
      'yarn.lock': '',
      'pnpm-lock.yaml': '',
      'Cargo.lock': '',
      'poetry.lock': '',
      'vendor.min.js': '',
    });
    assert.deepEqual(await listedPaths(), ['src/index.ts']);
  });

  it('lets an explicitly requested ignored folder be listed', async () => {
    root.write({ '.gitignore': 'generated/\n', 'generated/a.ts': '' });
    assert.deepEqual(await listedPaths({ path: 'generated' }), ['generated/a.ts']);
  });

  it('returns a stable, segment-by-segment path order', async () => {
    root.write({ 'b.ts': '', 'a/z.ts': '', 'a.ts': '', 'A.ts': '', 'a/b/c.ts': '', 'a-b.ts': '' });
    const expected = ['A.ts', 'a/b/c.ts', 'a/z.ts', 'a-b.ts', 'a.ts', 'b.ts'];
    assert.deepEqual(await listedPaths(), expected);
    assert.deepEqual(await listedPaths(), expected);
  });

  it('stops at maxWalkEntries and says so', async () => {
    root.write(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.ts`, ''])));
    const workspace = await Workspace.open(root.path, { maxWalkEntries: 10 });
    const walk = await walkWorkspace(workspace, await workspace.resolve('.'));
    assert.equal(walk.entries.length, 10);
    assert.equal(walk.truncated, true);
  });

  it('walks the same with asynchronous I/O', async () => {
    root.write({ '.gitignore': 'x/\n', 'x/a.ts': '', 'b/c.ts': '', 'd.ts': '' });
    const blocking = await Workspace.open(root.path);
    const nonBlocking = await Workspace.open(root.path, { ioSliceMs: 0 });
    const paths = async (ws: Workspace) => (await walkWorkspace(ws, await ws.resolve('.'))).entries.map((e) => e.relative);
    assert.deepEqual(await paths(nonBlocking), await paths(blocking));
    assert.deepEqual(await paths(blocking), ['.gitignore', 'b/c.ts', 'd.ts']);
  });

  it('rejects at once when the signal is already aborted', async () => {
    root.write({ 'a.ts': '' });
    const workspace = await Workspace.open(root.path);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(walkWorkspace(workspace, await workspace.resolve('.'), { signal: controller.signal }));
    assert.equal(error.name, 'AbortError');
  });
});
