import { strict as assert } from 'node:assert';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FileBundle, FileSummaries, FileTree, SearchResults } from '../../src/core/values/toolValues';
import { Workspace } from '../../src/core/workspace/workspace';
import { WorkspaceAccessError } from '../../src/core/workspace/workspaceErrors';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from '../tools/helpers/tempWorkspace';

/** Security promise #7: file tools stay inside the workspace folders. */
describe('security #7: workspace confinement', () => {
  let root: TempFolder;
  let outside: TempFolder;

  beforeEach(() => {
    root = makeTempFolder();
    outside = makeTempFolder('codewiki-outside-');
    root.write({ 'src/app.ts': 'export const app = 1;\n', 'README.md': '# Project\n' });
    outside.write({ 'secret.txt': 'TOP SECRET outside\n', 'dir/inner.txt': 'TOP SECRET inner\n' });
  });

  afterEach(() => {
    root.cleanup();
    outside.cleanup();
  });

  async function expectAccessError(promise: Promise<unknown>, code: string): Promise<WorkspaceAccessError> {
    const error = await rejectionOf(promise);
    assert.ok(error instanceof WorkspaceAccessError, `expected WorkspaceAccessError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return error;
  }

  describe('Workspace.resolve', () => {
    it('resolves relative paths against the primary root with real paths and posix relatives', async () => {
      const workspace = await Workspace.open(root.path);
      const resolved = await workspace.resolve('src/../src/app.ts');
      assert.equal(resolved.relative, 'src/app.ts');
      assert.equal(resolved.root, workspace.root);
      assert.equal((await workspace.resolve('.')).relative, '.');
    });

    it('rejects a ".." escape with a message naming the path and the root', async () => {
      const workspace = await Workspace.open(root.path);
      const error = await expectAccessError(workspace.resolve('../etc/passwd'), 'outside-workspace');
      assert.match(error.message, /"\.\.\/etc\/passwd" is outside the workspace \(/);
      assert.ok(error.message.includes(workspace.root));
      await expectAccessError(workspace.resolve('src/../../x'), 'outside-workspace');
    });

    it('rejects absolute paths outside every root and accepts absolute paths inside one', async () => {
      const workspace = await Workspace.open(root.path);
      await expectAccessError(workspace.resolve(join(outside.path, 'secret.txt')), 'outside-workspace');
      await expectAccessError(workspace.resolve('/etc/passwd'), 'outside-workspace');
      const inside = await workspace.resolve(join(root.path, 'src', 'app.ts'));
      assert.equal(inside.relative, 'src/app.ts');
    });

    it('accepts paths in a second root, relative to that root', async () => {
      const workspace = await Workspace.open([root.path, outside.path]);
      const resolved = await workspace.resolve(join(outside.path, 'dir', 'inner.txt'));
      assert.equal(resolved.relative, 'dir/inner.txt');
      assert.notEqual(resolved.root, workspace.root);
      await expectAccessError(workspace.resolve('../x'), 'outside-workspace');
    });

    it('rejects NUL bytes', async () => {
      const workspace = await Workspace.open(root.path);
      const error = await expectAccessError(workspace.resolve('src/app.ts\0.png'), 'nul-byte');
      assert.match(error.message, /NUL byte/);
    });

    it('rejects symlinks that lead outside, to a file or a folder', async () => {
      symlinkSync(join(outside.path, 'secret.txt'), join(root.path, 'link.txt'));
      symlinkSync(join(outside.path, 'dir'), join(root.path, 'linkdir'));
      const workspace = await Workspace.open(root.path);
      const error = await expectAccessError(workspace.resolve('link.txt'), 'outside-workspace');
      assert.match(error.message, /symbolic link/);
      await expectAccessError(workspace.resolve('linkdir/inner.txt'), 'outside-workspace');
      await expectAccessError(workspace.resolve('linkdir'), 'outside-workspace');
    });

    it('accepts symlinks that stay inside', async () => {
      symlinkSync(join(root.path, 'src', 'app.ts'), join(root.path, 'alias.ts'));
      const workspace = await Workspace.open(root.path);
      assert.equal((await workspace.resolve('alias.ts')).relative, 'src/app.ts');
    });

    it('reports missing files as not-found', async () => {
      const workspace = await Workspace.open(root.path);
      await expectAccessError(workspace.resolve('nope.ts'), 'not-found');
    });
  });

  describe('symlinks during walks', () => {
    beforeEach(() => {
      symlinkSync(join(outside.path, 'secret.txt'), join(root.path, 'src', 'link.txt'));
      symlinkSync(join(outside.path, 'dir'), join(root.path, 'src', 'linkdir'));
    });

    it('are not followed out by list_files, get_file_summaries or search_text', async () => {
      const tools = await openFileTools(root.path);
      const tree = await tools.invoke<FileTree>('list_files', { path: '.', depth: 5 });
      assert.deepEqual(
        tree.entries.map((e) => e.path),
        ['README.md', 'src', 'src/app.ts'],
      );
      const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
      assert.deepEqual(
        summaries.files.map((f) => f.path),
        ['README.md', 'src/app.ts'],
      );
      const search = await tools.invoke<SearchResults>('search_text', { query: 'TOP SECRET' });
      assert.equal(search.matches.length, 0);
    });

    it('are refused by read_file and reported missing by get_files_content_by_list', async () => {
      const tools = await openFileTools(root.path);
      await expectAccessError(tools.invoke('read_file', { path: 'src/link.txt' }), 'outside-workspace');
      const bundle = await tools.invoke<FileBundle>('get_files_content_by_list', { file_paths: ['src/link.txt', 'src/linkdir/inner.txt'] });
      assert.equal(bundle.files.length, 0);
      assert.deepEqual(
        bundle.missing.map((m) => m.path),
        ['src/link.txt', 'src/linkdir/inner.txt'],
      );
      assert.ok(bundle.missing.every((m) => /outside the workspace/.test(m.reason)));
    });
  });

  describe('secret files', () => {
    const secrets = [
      '.env',
      '.env.local',
      'config/.env.production',
      'certs/server.pem',
      'keys/private.key',
      'id_rsa',
      'home/id_rsa.pub',
      '.ssh/config',
      'deep/.ssh/known_hosts',
    ];

    beforeEach(() => {
      root.write(Object.fromEntries(secrets.map((path) => [path, 'PASSWORD=hunter2\n'])));
    });

    for (const path of secrets) {
      it(`denies reading ${path} with a clear error`, async () => {
        const tools = await openFileTools(root.path);
        const error = await expectAccessError(tools.invoke('read_file', { path }), 'secret');
        assert.match(error.message, /may contain secrets/);
        const bundle = await tools.invoke<FileBundle>('get_files_content_by_list', { file_paths: path });
        assert.equal(bundle.files.length, 0);
        assert.match(bundle.missing[0]?.reason ?? '', /secrets/);
      });
    }

    it('never lists, summarises or searches them', async () => {
      const tools = await openFileTools(root.path);
      const tree = await tools.invoke<FileTree>('list_files', { depth: 10 });
      const listed = tree.entries.map((e) => e.path);
      for (const path of secrets) assert.ok(!listed.includes(path), `${path} was listed`);
      assert.ok(!listed.some((p) => p.includes('.ssh')), 'the .ssh folder was listed');
      const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
      assert.deepEqual(summaries.files.map((f) => f.path).sort(), ['README.md', 'src/app.ts'].sort());
      const search = await tools.invoke<SearchResults>('search_text', { query: 'hunter2' });
      assert.deepEqual(search.matches, []);
    });

    it('are denied through a symlink with an innocent name', async () => {
      symlinkSync(join(root.path, '.env'), join(root.path, 'notes.txt'));
      const tools = await openFileTools(root.path);
      await expectAccessError(tools.invoke('read_file', { path: 'notes.txt' }), 'secret');
      const search = await tools.invoke<SearchResults>('search_text', { query: 'hunter2' });
      assert.deepEqual(search.matches, []);
    });

    it('can be allow-listed with gitignore-style patterns', async () => {
      root.write({ '.env.example': 'EXAMPLE=1\n' });
      const tools = await openFileTools(root.path, { allowSecrets: ['.env.example', '.ssh/known_hosts'] });
      const bundle = await tools.invoke<FileBundle>('read_file', { path: '.env.example' });
      assert.equal(bundle.files[0]?.content, 'EXAMPLE=1\n');
      const search = await tools.invoke<SearchResults>('search_text', { query: 'EXAMPLE' });
      assert.deepEqual(
        search.matches.map((m) => m.path),
        ['.env.example'],
      );
      // Only what was allowed: the rest stay denied.
      await expectAccessError(tools.invoke('read_file', { path: '.env' }), 'secret');
      await expectAccessError(tools.invoke('read_file', { path: 'deep/.ssh/known_hosts' }), 'secret');
      const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
      assert.ok(summaries.files.some((f) => f.path === '.env.example'));
      assert.ok(!summaries.files.some((f) => f.path === '.env'));
    });
  });

  describe('size caps and binaries', () => {
    it('truncates a file over maxFileBytes with a visible marker', async () => {
      root.write({ 'big.txt': 'x'.repeat(99) + '\n' + 'y'.repeat(3300) + '\n' });
      const tools = await openFileTools(root.path, { maxFileBytes: 1024 });
      const bundle = await tools.invoke<FileBundle>('read_file', { path: 'big.txt' });
      const file = bundle.files[0]!;
      assert.equal(file.truncated, true);
      assert.match(file.content, /… \[truncated by CodeWiki: file is 3\.3 KB, showing the first 1 KB\]$/);
      assert.ok(file.content.length < 1200);
    });

    it('stops at maxTotalBytes per call and says why', async () => {
      root.write({ 'a.txt': 'a'.repeat(600), 'b.txt': 'b'.repeat(600), 'c.txt': 'c'.repeat(600) });
      const tools = await openFileTools(root.path, { maxTotalBytes: 1000 });
      const bundle = await tools.invoke<FileBundle>('get_files_content_by_list', { file_paths: 'a.txt, b.txt, c.txt' });
      assert.equal(bundle.files[0]?.content, 'a'.repeat(600));
      assert.equal(bundle.files[1]?.truncated, true);
      assert.deepEqual(
        bundle.missing.map((m) => m.path),
        ['c.txt'],
      );
      assert.match(bundle.missing[0]!.reason, /per-call limit/);
    });

    it('skips binaries by extension and by NUL bytes, and refuses to read them', async () => {
      root.write({ 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'data.weird': Buffer.from('abc\0def') });
      const tools = await openFileTools(root.path);
      const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
      assert.deepEqual(
        summaries.files.map((f) => f.path),
        ['README.md', 'src/app.ts'],
      );
      const tree = await tools.invoke<FileTree>('list_files', {});
      assert.ok(!tree.entries.some((e) => e.path === 'logo.png'));
      const search = await tools.invoke<SearchResults>('search_text', { query: 'abc' });
      assert.equal(search.matches.length, 0);
      await expectAccessError(tools.invoke('read_file', { path: 'data.weird' }), 'binary');
      await expectAccessError(tools.invoke('read_file', { path: 'logo.png' }), 'binary');
    });
  });
});
