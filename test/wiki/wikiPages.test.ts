import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_NOTES } from '../../src/core/wiki/pages/pageSections';
import { FOREIGN_FILE } from '../../src/core/wiki/pages/wikiPages';
import { HOSTILE_FOLDER, WikiRepo } from './wikiFixture';
import { pageTimes, readWikiPages } from './wikiPageReading';

/** A change to a function's body: the file's content changes, its definitions and their lines do not. */
const CLOCK_EDIT = ['const elapsed = Date.now() - start;', 'const elapsed = Math.max(0, Date.now() - start);'] as const;
const RUNNER_EDIT = ['return `${count} tasks`;', 'return `${count} task(s)`;'] as const;
const PROSE = 'The `TaskRegistry` class in `core/registry.ts` keeps every task the engine runs.';
const MY_NOTES = '\nAsk the platform team before renaming `TaskRegistry`: plugins load it by name.\n';

/** A folder of four files: a module of its own. */
const folderOf = (name: string) =>
  Object.fromEntries(
    ['a', 'b', 'c', 'd'].map((file) => [
      `${name}/${file}.ts`,
      `/** Part ${file} of ${name}. */\nexport function ${file}Part(): string {\n  return '${file}';\n}\n`,
    ]),
  );

describe('wiki pages on disk: rewritten only when their module changes, prose and notes kept', () => {
  let repo: WikiRepo;
  const wikiDir = () => repo.engine.wiki.wikiDir;
  const page = (path: string) => readFileSync(join(wikiDir(), path), 'utf8');
  /** What a person does in an editor: replaces the notes invitation with their own text. */
  const setNotes = (path: string, notes: string) => {
    const text = page(path);
    assert.ok(text.includes(DEFAULT_NOTES));
    writeFileSync(join(wikiDir(), path), text.replace(DEFAULT_NOTES, notes.trim()));
  };

  beforeEach(async () => {
    repo = await WikiRepo.open();
  });
  afterEach(async () => repo.close());

  it('an edited file rewrites its own module page and no other', async () => {
    const first = await repo.engine.wiki.updateStructure();
    assert.equal(first.written.length, 6, 'the first run writes every page');
    const before = readWikiPages(wikiDir());
    const timesBefore = pageTimes(wikiDir());

    repo.edit('util/clock.ts', ...CLOCK_EDIT);
    await repo.nextRun();
    const { written } = await repo.engine.wiki.updateStructure();

    assert.deepEqual(written, ['modules/util.md']);
    const after = readWikiPages(wikiDir());
    const timesAfter = pageTimes(wikiDir());
    assert.deepEqual([...after.keys()], [...before.keys()]);
    for (const [path, text] of after) {
      if (path === 'modules/util.md') {
        assert.notEqual(text, before.get(path), 'the module page records the new contents');
        continue;
      }
      assert.equal(text, before.get(path), `${path} is unchanged`);
      assert.equal(timesAfter.get(path), timesBefore.get(path), `${path} was not rewritten`);
    }

    const again = await repo.engine.wiki.updateStructure();
    assert.deepEqual(again.written, [], 'a run with nothing changed writes no page');
  });

  it('check() lists exactly the stale page after an edit, writes nothing, and lists nothing once the wiki is regenerated', async () => {
    assert.deepEqual(
      (await repo.engine.wiki.check()).map((stale) => stale.reason),
      Array(6).fill('not written yet'),
    );
    await repo.engine.wiki.updateStructure();
    assert.deepEqual(await repo.engine.wiki.check(), []);

    repo.edit('util/clock.ts', ...CLOCK_EDIT);
    await repo.nextRun();
    const before = readWikiPages(wikiDir());
    assert.deepEqual(await repo.engine.wiki.check(), [{ page: 'modules/util.md', reason: 'the structure changed' }]);
    assert.deepEqual(readWikiPages(wikiDir()), before, 'check writes nothing');

    await repo.engine.wiki.updateStructure();
    assert.deepEqual(await repo.engine.wiki.check(), []);
  });

  it('keeps hand-written notes when the page is regenerated', async () => {
    await repo.engine.wiki.updateStructure();
    setNotes('modules/core.md', MY_NOTES);

    repo.edit('core/runner.ts', ...RUNNER_EDIT);
    await repo.nextRun();
    const { written } = await repo.engine.wiki.updateStructure();

    assert.ok(written.includes('modules/core.md'), written.join(', '));
    const core = page('modules/core.md');
    assert.equal(core.split(MY_NOTES.trim()).length, 2, 'the notes are on the page once');
    assert.ok(!core.includes(DEFAULT_NOTES), 'the invitation does not come back');
    assert.match(core, /<!-- codewiki:notes:start -->\s*Ask the platform team[^\n]*\s*<!-- codewiki:notes:end -->/);
    assert.deepEqual(await repo.engine.wiki.check(), []);
  });

  it('keeps saved prose while its module is unchanged, and reports it stale once the module changes', async () => {
    await repo.engine.wiki.updateStructure();
    const saved = await repo.engine.wiki.saveProse('modules/core.md', PROSE, 'scripted-model');
    assert.deepEqual(saved, { page: 'modules/core.md', removed: [], written: true });
    const withProse = page('modules/core.md');
    assert.ok(withProse.includes('[`core/registry.ts`](../../../core/registry.ts) keeps every task the engine runs.'), withProse);
    assert.match(withProse, /_Written by scripted-model for commit unknown\._/);
    assert.deepEqual(await repo.engine.wiki.check(), [], 'fresh prose is not stale');

    repo.edit('util/clock.ts', ...CLOCK_EDIT);
    await repo.nextRun();
    const other = await repo.engine.wiki.updateStructure();
    assert.deepEqual(other.written, ['modules/util.md']);
    assert.equal(page('modules/core.md'), withProse, 'another module changing leaves the prose and page alone');

    repo.edit('core/runner.ts', ...RUNNER_EDIT);
    await repo.nextRun();
    const staleProse = [{ page: 'modules/core.md', reason: 'the module changed since its overview was written' }];
    assert.deepEqual(await repo.engine.wiki.check(), staleProse);
    const rerun = await repo.engine.wiki.updateStructure();
    assert.deepEqual(rerun.written, ['modules/core.md']);
    const core = page('modules/core.md');
    assert.ok(core.includes('keeps every task the engine runs.'), 'the old prose stays until new prose is written');
    assert.deepEqual(await repo.engine.wiki.check(), staleProse, 'and the page stays stale until then');
    const { plan, wiki } = await repo.engine.wiki.plan();
    assert.deepEqual(
      repo.engine.wiki.proseTargets(plan, wiki, 'stale').modules.find((target) => target.page === 'modules/core.md')?.module,
      'core',
      'the next prose run rewrites it',
    );
  });

  it('removes the page of a module that is gone, but keeps one whose notes were edited and reports it', async () => {
    await repo.engine.wiki.updateStructure();
    const hostilePage = [...readWikiPages(wikiDir()).keys()].find((path) => path.startsWith('modules/evil'))!;
    setNotes(hostilePage, MY_NOTES);
    const hostileText = page(hostilePage);

    // Not the plugin package: without a package below it, the whole small repository would become one module.
    rmSync(join(repo.root, 'cli'), { recursive: true });
    rmSync(join(repo.root, HOSTILE_FOLDER), { recursive: true });
    await repo.nextRun();
    assert.deepEqual(
      (await repo.engine.wiki.check()).sort((a, b) => a.page.localeCompare(b.page)),
      [
        { page: 'index.md', reason: 'the structure changed' },
        { page: 'modules/cli.md', reason: 'its module no longer exists' },
        { page: 'modules/core.md', reason: 'the structure changed' },
        { page: 'modules/util.md', reason: 'the structure changed' },
      ],
      'core and util lose a user; cli and the hostile folder are gone',
    );
    // The page with notes is said, not stale: CI would fail on every push until someone moved the notes.
    assert.deepEqual(await repo.engine.wiki.orphans(), [hostilePage]);
    const { written } = await repo.engine.wiki.updateStructure();

    assert.deepEqual(written.sort(), ['index.md', 'modules/core.md', 'modules/util.md']);
    assert.ok(!existsSync(join(wikiDir(), 'modules/cli.md')), 'the page of a module that is gone is removed');
    assert.equal(page(hostilePage), hostileText, 'a page holding notes is kept as it was');
    assert.deepEqual(await repo.engine.wiki.check(), []);
    assert.deepEqual(await repo.engine.wiki.orphans(), [hostilePage]);
    const manifest = JSON.parse(page('manifest.json')) as { pages: Array<{ page: string }> };
    assert.deepEqual(manifest.pages.map((entry) => entry.page).sort(), [...readWikiPages(wikiDir()).keys()].sort());
  });

  it("notes go with their module when its page moves, and a gone module's notes move aside rather than onto another module's page", async () => {
    const moduleOf = (path: string) => /"module":"([^"]+)"/.exec(page(path))?.[1];
    repo.folder.write(folderOf('x-y'));
    await repo.nextRun();
    await repo.engine.wiki.updateStructure();
    assert.equal(moduleOf('modules/x-y.md'), 'x-y');
    setNotes('modules/x-y.md', 'Notes about x-y.');

    // "x y" slugs alike and sorts first: it takes modules/x-y.md, and x-y moves to modules/x-y-2.md with its notes.
    repo.folder.write(folderOf('x y'));
    await repo.nextRun();
    await repo.engine.wiki.updateStructure();
    assert.equal(moduleOf('modules/x-y.md'), 'x y');
    assert.equal(moduleOf('modules/x-y-2.md'), 'x-y');
    assert.match(page('modules/x-y-2.md'), /Notes about x-y\./);
    assert.doesNotMatch(page('modules/x-y.md'), /Notes about x-y\./, 'the notes stay with the module they were written about');
    setNotes('modules/x-y.md', 'Notes about x y.');

    // "x y" goes: x-y takes its first page back, and the notes of "x y" are kept beside it, not put on x-y's page.
    rmSync(join(repo.root, 'x y'), { recursive: true });
    await repo.nextRun();
    await repo.engine.wiki.updateStructure();
    assert.equal(moduleOf('modules/x-y.md'), 'x-y');
    assert.match(page('modules/x-y.md'), /Notes about x-y\./);
    assert.doesNotMatch(page('modules/x-y.md'), /Notes about x y\./);
    assert.ok(!existsSync(join(wikiDir(), 'modules/x-y-2.md')), 'the page it left is removed, its notes went with it');
    assert.match(page('modules/x-y-notes.md'), /Notes about x y\./);
    assert.deepEqual(await repo.engine.wiki.orphans(), ['modules/x-y-notes.md']);
    assert.deepEqual(await repo.engine.wiki.check(), []);
  });

  it("notes are never lost to a file of the user's where their module's page would move, nor to prose written before the structure", async () => {
    repo.folder.write(folderOf('x-y'));
    await repo.nextRun();
    await repo.engine.wiki.updateStructure();
    setNotes('modules/x-y.md', 'Notes about x-y.');

    // A shard writes prose without bringing the structure up to date: over the page of a module whose notes have
    // not moved yet, it refuses.
    repo.folder.write(folderOf('x y'));
    await repo.nextRun();
    await assert.rejects(
      repo.engine.wiki.saveProse('modules/x-y.md', 'The `aPart` function starts it.', 'm'),
      /x-y\.md holds the notes of the module "x-y": bring the structure up to date first/,
    );
    assert.match(page('modules/x-y.md'), /Notes about x-y\./);

    // x-y's new page would be modules/x-y-2.md, where a file of the user's is: its notes are kept aside instead.
    writeFileSync(join(wikiDir(), 'modules', 'x-y-2.md'), 'Mine.\n');
    await repo.engine.wiki.updateStructure();
    assert.equal(page('modules/x-y-2.md'), 'Mine.\n');
    assert.match(page('modules/x-y-notes.md'), /Notes about x-y\./);
    assert.doesNotMatch(page('modules/x-y.md'), /Notes about x-y\./);
  });

  it("a file CodeWiki did not write is never written over: the page is reported, and a manifest of someone else's stops the run", async () => {
    mkdirSync(join(wikiDir(), 'modules'), { recursive: true });
    // Mentioning a marker is not being a page: CodeWiki writes its markers at the start of a line.
    const mine = '# My own page about core\n\nCodeWiki keeps notes after `<!-- codewiki:notes:start -->`.\n';
    writeFileSync(join(wikiDir(), 'modules', 'core.md'), mine);
    await repo.engine.wiki.updateStructure();
    assert.equal(page('modules/core.md'), mine);
    assert.deepEqual(
      (await repo.engine.wiki.check()).filter((stale) => stale.page === 'modules/core.md'),
      [{ page: 'modules/core.md', reason: FOREIGN_FILE }],
    );
    const targets = repo.engine.wiki.proseTargets((await repo.engine.wiki.plan()).plan, (await repo.engine.wiki.structure()).wiki, 'all');
    assert.ok(!targets.modules.some((target) => target.page === 'modules/core.md'), 'no prose is written for it');
    await assert.rejects(repo.engine.wiki.saveProse('modules/core.md', 'The `TaskRegistry` keeps tasks.', 'm'), /core\.md: a file CodeWiki did not write/);
    const shown = await repo.engine.wiki.readPage('core/registry.ts');
    assert.equal(shown?.page, 'modules/core.md');
    assert.match(shown!.text, /TaskRegistry/, 'read_wiki draws the module from the index');
    assert.doesNotMatch(shown!.text, /My own page/, 'not from the file that is not a page');
    assert.ok(!(await repo.engine.wiki.listPages()).some((listed) => listed.path === 'modules/core.md'), 'the wiki view does not list it');
    assert.equal(page('modules/core.md'), mine);

    writeFileSync(join(wikiDir(), 'manifest.json'), '{"name": "my web app", "icons": []}\n');
    rmSync(join(wikiDir(), 'index.md'));
    await assert.rejects(repo.engine.wiki.updateStructure(), /manifest\.json is not CodeWiki's manifest/);
    assert.equal(page('manifest.json'), '{"name": "my web app", "icons": []}\n');
    assert.ok(!existsSync(join(wikiDir(), 'index.md')), 'nothing was written');
  });
});
