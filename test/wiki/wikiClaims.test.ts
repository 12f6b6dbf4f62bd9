import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPageParts } from '../../src/core/wiki/pages/pageSections';
import { plainProse } from '../../src/core/wiki/prose/plainProse';
import { namesTheIndexDoesNotKnow } from '../support/wikiRecheck';
import { WikiRepo } from './wikiFixture';
import { renderPage } from './wikiPageReading';

/** Issue 23 §5: no page names what does not exist, and what it links stays where the code is. */
describe('wiki prose claims: checked and linked on the page (real files)', () => {
  let repo: WikiRepo;
  beforeEach(async () => {
    repo = await WikiRepo.open();
  });
  afterEach(async () => {
    await repo.close();
  });

  const pageOf = async (file: string) => (await repo.engine.wiki.structure()).wiki.modules.find((module) => module.files.includes(file))!.page;
  const proseOn = (page: string) => readPageParts(readFileSync(join(repo.engine.wiki.wikiDir, page), 'utf8')).prose ?? '';

  it('a code block in the prose goes, counted, since its names cannot be checked; the sentences around it stay', async () => {
    await repo.engine.wiki.updateStructure();
    const page = await pageOf('core/registry.ts');
    const saved = await repo.engine.wiki.saveProse(
      page,
      [
        'The `TaskRegistry` keeps every task by name.',
        '',
        '```ts',
        "import { inventedHelperFn } from './nothere';",
        '```',
        '',
        'Start with `core/registry.ts`.',
      ].join('\n'),
      'test-model',
    );
    assert.equal(saved.written, true);
    assert.deepEqual(
      saved.removed.map((claim) => claim.reason),
      ['a code block: an overview keeps prose only'],
    );
    const prose = proseOn(page);
    assert.doesNotMatch(prose, /inventedHelperFn|nothere|```/);
    assert.match(prose, /keeps every task by name\./);
    assert.match(prose, /Start with /);
    assert.equal(readPageParts(readFileSync(join(repo.engine.wiki.wikiDir, page), 'utf8')).meta?.prose?.removed, 1);
  });

  it('a link into another module follows its definition when that module changes: the page is stale until rewritten, then points at the new line', async () => {
    await repo.engine.wiki.updateStructure();
    const page = await pageOf('util/clock.ts');
    assert.notEqual(page, await pageOf('core/events.ts'), 'the definition is in another module');
    await repo.engine.wiki.saveProse(page, 'Times are read by the `EventBus` when it reports a task.', 'test-model');
    const linkTo = (prose: string) => renderPage(prose).links.find((link) => link.text === 'EventBus')?.href;
    assert.match(linkTo(proseOn(page)) ?? '', /core\/events\.ts#L4$/);

    repo.edit(
      'core/events.ts',
      "import { TaskRegistry } from './registry';",
      "import { TaskRegistry } from './registry';\n\n// Three lines\n// above the class.",
    );
    await repo.nextRun();
    const stale = await repo.engine.wiki.check();
    assert.ok(
      stale.some((entry) => entry.page === page && entry.reason === 'the structure changed'),
      `the page linking the moved definition is stale: ${JSON.stringify(stale)}`,
    );
    await repo.engine.wiki.updateStructure();
    const prose = proseOn(page);
    assert.match(linkTo(prose) ?? '', /core\/events\.ts#L7$/, prose);
    assert.match(prose, /Times are read by the /, 'the prose itself is kept: its own module did not change');
    assert.ok(!(await repo.engine.wiki.check()).some((entry) => entry.page === page));
  });

  it('a linked name right after a "!" stays a link, never an image', async () => {
    await repo.engine.wiki.updateStructure();
    const page = await pageOf('core/registry.ts');
    await repo.engine.wiki.saveProse(page, 'A lookup that fails returns !`TaskRegistry` checks.', 'test-model');
    const rendered = renderPage(proseOn(page));
    assert.deepEqual(rendered.images, []);
    assert.ok(
      rendered.links.some((link) => link.text === 'TaskRegistry'),
      rendered.rendered,
    );
    // Where a model reads the page (read_wiki, how-questions), the escapes and links are undone.
    assert.match(plainProse(proseOn(page)) ?? '', /^A lookup that fails returns !`TaskRegistry` checks\.\n*$/m);
  });

  it('the re-check that benches and the real-model tier run finds a name on a saved page that the code does not define', async () => {
    await repo.engine.wiki.updateStructure();
    const page = await pageOf('core/registry.ts');
    await repo.engine.wiki.saveProse(page, 'The `TaskRegistry` keeps every task by name.', 'test-model');
    const wikiDir = repo.engine.wiki.wikiDir;
    assert.deepEqual((await namesTheIndexDoesNotKnow(repo.root, wikiDir, [page])).get(page), []);
    const text = readFileSync(join(wikiDir, page), 'utf8');
    writeFileSync(join(wikiDir, page), text.replace('keeps every task by name.', 'keeps every task by name. It calls `inventedHelperFn`.'));
    assert.deepEqual(
      (await namesTheIndexDoesNotKnow(repo.root, wikiDir, [page])).get(page)?.map((claim) => claim.name),
      ['inventedHelperFn'],
    );
  });
});
