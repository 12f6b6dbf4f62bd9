import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FileBundle, FileSummaries, FileTree, SearchResults } from '../../src/core/values/toolValues';
import { Workspace } from '../../src/core/workspace/workspace';
import { WorkspaceAccessError } from '../../src/core/workspace/workspaceErrors';
import { type TempFolder, makeTempFolder, openFileTools, rejectionOf } from '../tools/helpers/tempWorkspace';

/**
 * A multi-root workspace (issue 22): paths name their folder as VS Code writes them (`lib/src/a.ts`
 * for the folder named lib), the tools take that form back, and security promise #7 holds for
 * every folder: symlinks that leave all of them, secret files and each folder's .gitignore.
 */
describe('security #7 in a multi-root workspace', () => {
  let app: TempFolder;
  let lib: TempFolder;
  let outside: TempFolder;

  beforeEach(() => {
    app = makeTempFolder('codewiki-app-');
    lib = makeTempFolder('codewiki-lib-');
    outside = makeTempFolder('codewiki-outside-');
    app.write({ 'src/main.ts': 'export const where = "app";\n', 'README.md': '# App\n' });
    lib.write({ 'src/main.ts': 'export const where = "lib";\n', '.env': 'TOKEN=lib-secret\n', '.gitignore': 'build/\n', 'build/out.js': 'built\n' });
    outside.write({ 'secret.txt': 'TOP SECRET outside\n' });
  });

  afterEach(() => {
    for (const folder of [app, lib, outside]) folder.cleanup();
  });

  const open = () =>
    Workspace.open([
      { path: app.path, name: 'app' },
      { path: lib.path, name: 'lib' },
    ]);

  async function refused(promise: Promise<unknown>, code: string): Promise<WorkspaceAccessError> {
    const error = await rejectionOf(promise);
    assert.ok(error instanceof WorkspaceAccessError, `expected WorkspaceAccessError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return error;
  }

  it("shows the second folder's paths as <folder name>/relative and resolves that form back into the folder", async () => {
    const workspace = await open();
    const inLib = await workspace.resolve('lib/src/main.ts');
    assert.equal(inLib.root, workspace.roots[1]);
    assert.equal(inLib.relative, 'src/main.ts');
    assert.equal(workspace.displayPath(inLib), 'lib/src/main.ts');
    assert.equal(workspace.displayPath(await workspace.resolve('lib')), 'lib');
    // The first folder's paths stay bare, as in a one-folder workspace; absolute paths inside any folder work.
    const inApp = await workspace.resolve('src/main.ts');
    assert.equal(inApp.root, workspace.root);
    assert.equal(workspace.displayPath(inApp), 'src/main.ts');
    assert.equal((await workspace.resolve(join(lib.path, 'src', 'main.ts'))).root, workspace.roots[1]);
    // VS Code writes the first folder's paths with its name too in a multi-root workspace: accepted.
    assert.equal((await workspace.resolve('app/src/main.ts')).root, workspace.root);
  });

  it('when the first folder has an entry named like another folder, the folder wins and ./name is the entry', async () => {
    app.write({ 'lib/notes.md': "the app's own lib folder\n" });
    const workspace = await open();
    await refused(workspace.resolve('lib/notes.md'), 'not-found');
    const own = await workspace.resolve('./lib/notes.md');
    assert.equal(own.root, workspace.root);
    assert.equal(workspace.displayPath(own), './lib/notes.md', 'written so that it resolves back to the same file');
    assert.equal(workspace.displayPath(await workspace.resolve(workspace.displayPath(own))), './lib/notes.md');
  });

  it('two folders of one name: neither takes the name, their paths are shown absolute', async () => {
    const other = makeTempFolder('codewiki-other-');
    try {
      other.write({ 'x.ts': 'x\n' });
      const workspace = await Workspace.open([app.path, { path: lib.path, name: 'shared' }, { path: other.path, name: 'shared' }]);
      const target = await workspace.resolve(join(other.path, 'x.ts'));
      assert.equal(workspace.displayPath(target), join(workspace.roots[2]!, 'x.ts'));
      await refused(workspace.resolve('shared/x.ts'), 'not-found');
    } finally {
      other.cleanup();
    }
  });

  it('a folder name is a base name by default; ".." after it cannot leave the folder', async () => {
    const workspace = await Workspace.open([app.path, lib.path]);
    assert.deepEqual(workspace.folderNames, [basename(app.path), basename(lib.path)]);
    assert.equal(workspace.displayPath(await workspace.resolve(join(lib.path, 'src/main.ts'))), `${basename(lib.path)}/src/main.ts`);
    const named = await open();
    await refused(named.resolve('lib/../../etc/passwd'), 'outside-workspace');
    await refused(named.resolve('lib/../' + basename(outside.path) + '/secret.txt'), 'outside-workspace');
  });

  it('refuses secret files and symlinks that leave every folder, in the second folder too', async () => {
    symlinkSync(join(outside.path, 'secret.txt'), join(lib.path, 'src', 'leak.txt'));
    symlinkSync(join(app.path, 'README.md'), join(lib.path, 'src', 'readme-link.md'));
    const workspace = await open();
    await refused(workspace.resolve('lib/.env'), 'secret');
    await refused(workspace.resolve('lib/src/leak.txt'), 'outside-workspace');
    // A link from one folder into another stays inside the workspace.
    const linked = await workspace.resolve('lib/src/readme-link.md');
    assert.equal(workspace.displayPath(linked), 'README.md');

    const tools = await openFileTools([
      { path: app.path, name: 'app' },
      { path: lib.path, name: 'lib' },
    ]);
    const bundle = await tools.invoke<FileBundle>('get_files_content_by_list', { file_paths: ['lib/.env', 'lib/src/leak.txt', 'lib/src/main.ts'] });
    assert.deepEqual(
      bundle.files.map((f) => f.path),
      ['lib/src/main.ts'],
    );
    assert.deepEqual(
      bundle.missing.map((m) => m.path),
      ['lib/.env', 'lib/src/leak.txt'],
    );
    const search = await tools.invoke<SearchResults>('search_text', { query: 'SECRET' });
    assert.equal(search.matches.length, 0, 'neither the .env nor the link out is searched');
  });

  it('list_files, search_text and get_file_summaries cover every folder, each with its own .gitignore', async () => {
    const tools = await openFileTools([
      { path: app.path, name: 'app' },
      { path: lib.path, name: 'lib' },
    ]);
    const tree = await tools.invoke<FileTree>('list_files', {});
    assert.deepEqual(
      tree.entries.map((e) => [e.path, e.depth]),
      [
        ['README.md', 1],
        ['src', 1],
        ['src/main.ts', 2],
        ['lib', 1],
        ['lib/.gitignore', 2],
        ['lib/src', 2],
      ],
    );
    const search = await tools.invoke<SearchResults>('search_text', { query: 'export const where' });
    assert.deepEqual(
      search.matches.map((m) => `${m.path}: ${m.text}`),
      ['src/main.ts: export const where = "app";', 'lib/src/main.ts: export const where = "lib";'],
    );
    assert.deepEqual((await tools.invoke<SearchResults>('search_text', { query: 'built' })).matches, [], "lib's .gitignore leaves build/ out");
    const onlyLib = await tools.invoke<SearchResults>('search_text', { query: 'where', path: 'lib' });
    assert.deepEqual(
      onlyLib.matches.map((m) => m.path),
      ['lib/src/main.ts'],
    );
    const globbed = await tools.invoke<SearchResults>('search_text', { query: 'where', glob: 'lib/**/*.ts' });
    assert.deepEqual(
      globbed.matches.map((m) => m.path),
      ['lib/src/main.ts'],
      'a glob can name the folder',
    );
    const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
    assert.deepEqual(
      summaries.files.map((f) => f.path),
      ['README.md', 'src/main.ts', 'lib/.gitignore', 'lib/src/main.ts'],
    );
  });

  it('a walk over the whole workspace shares one entry cap', async () => {
    mkdirSync(join(lib.path, 'more'));
    for (let i = 0; i < 5; i++) lib.write({ [`more/f${i}.txt`]: 'x' });
    const tools = await openFileTools([app.path, { path: lib.path, name: 'lib' }], { maxWalkEntries: 4 });
    const summaries = await tools.invoke<FileSummaries>('get_file_summaries', { path: '.' });
    assert.equal(summaries.truncated, true);
    assert.ok(summaries.files.length <= 4, `${summaries.files.length} files`);
  });
});
