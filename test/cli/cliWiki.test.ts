import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';
import { OpenAiTestServer } from '../support/openaiServer';
import { BUILTIN_PROMPTS, wikiRepoFiles } from '../wiki/wikiFixture';
import { linkTarget, readWikiPages, renderPage } from '../wiki/wikiPageReading';

const MODULE_PAGES = ['modules/cli.md', 'modules/core.md', 'modules/evil-click-m0-call-alert-1-init-x-y.md', 'modules/plugin.md', 'modules/util.md'];

describe('codewiki wiki (CLI as a child process, no model)', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let outside: string | undefined;
  const wikiDir = () => join(ws.root, '.codewiki', 'wiki');
  const wiki = (...args: string[]) => runCli(['wiki', ...args], { cwd: ws.root });
  const editClock = () => {
    const file = join(ws.root, 'util/clock.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('const elapsed = Date.now() - start;', 'const elapsed = Math.max(0, Date.now() - start);'));
  };

  beforeEach(() => {
    ws = tempWorkspace(wikiRepoFiles());
  });
  afterEach(() => {
    ws.cleanup();
    if (outside) rmSync(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('--structure-only writes every page and prints the summary; a second run writes none', async () => {
    const first = await wiki('--structure-only');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^structure: 5 modules from 21 code files; 6 of 6 pages written to \.codewiki\/wiki in \d+\.\d s$/m);
    assert.deepEqual([...readWikiPages(wikiDir()).keys()], ['index.md', ...MODULE_PAGES]);
    assert.ok(existsSync(join(wikiDir(), 'manifest.json')));
    assert.match(readFileSync(join(wikiDir(), 'modules/core.md'), 'utf8'), /\[`TaskRegistry`\]\(\.\.\/\.\.\/\.\.\/core\/registry\.ts#L4\) class/);

    const second = await wiki('--structure-only', '--workspace', ws.root);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /; 0 of 6 pages written to /);
  });

  it('--check exits 0 when the wiki is fresh, and exits 1 listing the stale page after an edit, writing nothing', async () => {
    assert.equal((await wiki('--structure-only')).code, 0);
    const fresh = await wiki('--check');
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.equal(fresh.stdout, 'the wiki in .codewiki/wiki is up to date\n');

    editClock();
    const before = readWikiPages(wikiDir());
    const stale = await wiki('--check');
    assert.equal(stale.code, 1, stale.stderr);
    assert.equal(stale.stdout, '1 stale page in .codewiki/wiki:\n  modules/util.md: the structure changed\nrun "codewiki wiki" to bring them up to date\n');
    assert.deepEqual(readWikiPages(wikiDir()), before, '--check writes nothing');

    const update = await wiki('--structure-only');
    assert.match(update.stderr, /; 1 of 6 pages written to /);
    assert.equal((await wiki('--check')).code, 0);
  });

  it('--check with --structure-only is a usage error', async () => {
    const result = await wiki('--check', '--structure-only');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--check writes nothing/);
    assert.ok(!existsSync(wikiDir()));
  });

  it('--out DIR writes the wiki there, with links that lead back to the workspace', async () => {
    outside = mkdtempSync(join(tmpdir(), 'codewiki-wiki-out-'));
    const out = join(outside, 'site', 'wiki');
    const result = await wiki('--structure-only', '--out', out);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!existsSync(wikiDir()), 'nothing in the workspace');
    const pages = readWikiPages(out);
    assert.deepEqual([...pages.keys()], ['index.md', ...MODULE_PAGES]);
    const registry = renderPage(pages.get('modules/core.md')!).links.find((link) => link.text === 'TaskRegistry')!;
    assert.deepEqual(linkTarget(out, 'modules/core.md', registry.href), { path: join(ws.root, 'core/registry.ts'), line: 4 });

    const check = await wiki('--check', '--out', out);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });

  it('a workspace copy of wiki-page.yaml in .codewiki/prompts replaces the built-in: its text is what the model is asked', async () => {
    const builtin = readFileSync(join(BUILTIN_PROMPTS, 'wiki-page.yaml'), 'utf8');
    const ownAsk = 'Write a two-sentence overview of {page} for new team members, in plain words.';
    assert.match(builtin, /Write the overview for the wiki page \{page\} in at most 90 words/);
    mkdirSync(join(ws.root, '.codewiki', 'prompts'), { recursive: true });
    writeFileSync(
      join(ws.root, '.codewiki', 'prompts', 'wiki-page.yaml'),
      builtin.replace(/( {6})Write the overview for the wiki page \{page\}[^]*?where a reader should start\.\n/, `$1${ownAsk}\n`),
    );
    const server = new OpenAiTestServer(() => ({ text: 'The `TaskRegistry` keeps every task.' }));
    await server.start();
    try {
      const result = await wiki('--base-url', server.url, '--model', 'test-model');
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.length, 6, 'one request per page');
      for (const request of server.requests) {
        assert.ok(request.promptText.includes('Write a two-sentence overview of '), request.promptText.slice(-400));
        assert.ok(!request.promptText.includes('in at most 90 words'), 'the built-in text is not sent');
      }
      assert.match(readFileSync(join(wikiDir(), 'modules/core.md'), 'utf8'), /keeps every task\./);
    } finally {
      await server.close();
    }
  });

  it("a file of the user's where a page goes is left alone, said on stderr, and reported by --check", async () => {
    mkdirSync(join(wikiDir(), 'modules'), { recursive: true });
    writeFileSync(join(wikiDir(), 'modules', 'util.md'), 'My notes on util, not a CodeWiki page.\n');
    const result = await wiki('--structure-only');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^warning: modules\/util\.md not written: a file CodeWiki did not write is at this path/m);
    assert.equal(readFileSync(join(wikiDir(), 'modules', 'util.md'), 'utf8'), 'My notes on util, not a CodeWiki page.\n');
    const check = await wiki('--check');
    assert.equal(check.code, 1);
    assert.match(check.stdout, /modules\/util\.md: a file CodeWiki did not write is at this path/);
  });
});
