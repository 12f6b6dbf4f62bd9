import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/runCli';
import { checkWikiLinks } from '../support/wikiLinks';
import { namesTheIndexDoesNotKnow } from '../support/wikiRecheck';
import { pinnedModels, REPO_ROOT } from './localModelServer';
import { cacheSharingModels } from './sharedModelCache';

/**
 * Issue 23: a small fixture's wiki generated end to end on the pinned test model: the structure pages, then the
 * built-in `wiki` action prompt's prose on the real llama-server. Assertions hold for any sane model: the prose
 * is attributed to the model and the commit, every link resolves, and every name left in the prose exists.
 */
describe('real model: codewiki wiki writes the example workspace wiki on the local model', function () {
  this.timeout(600_000);
  let cache: ReturnType<typeof cacheSharingModels>;
  let repo: string;
  const model = pinnedModels().fastTestModel;
  const env = () => ({ CODEWIKI_CACHE_DIR: cache.dir, CODEWIKI_LOCAL_MODEL: model });
  before(() => {
    cache = cacheSharingModels();
    repo = mkdtempSync(join(tmpdir(), 'codewiki-wiki-real-'));
    cpSync(join(REPO_ROOT, 'example-workspace'), repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.email=test@example.com', '-c', 'user.name=test', 'commit', '-qm', 'fixture');
  });
  after(async () => {
    await runCli(['local-model', 'stop'], { env: env() });
    cache?.cleanup();
    rmSync(repo, { recursive: true, force: true });
  });

  it('writes prose the model is named for, with links that resolve and no name that does not exist', async () => {
    const run = await runCli(['wiki', '--workspace', repo, '--log', join(repo, 'wiki-log.json')], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /using the local model/);
    const wikiDir = join(repo, '.codewiki', 'wiki');
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const index = readFileSync(join(wikiDir, 'index.md'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(wikiDir, 'manifest.json'), 'utf8')) as {
      pages: Array<{ page: string; prose?: { model: string; commit: string } }>;
    };
    const withProse = manifest.pages.filter((page) => page.prose);
    assert.ok(withProse.length > 0, `some page has prose; stderr:\n${run.stderr}`);
    for (const page of withProse) {
      assert.equal(page.prose!.model, model);
      assert.equal(page.prose!.commit, commit);
      const text = readFileSync(join(wikiDir, page.page), 'utf8');
      assert.ok(
        text.includes(`_Written by ${model.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&')} for commit ${commit}._`),
        `${page.page} names its author and commit`,
      );
    }
    assert.match(index, /## Modules/);
    assert.deepEqual(checkWikiLinks(wikiDir).broken, []);
    // The trust check run again on what was saved finds nothing to remove: no invented name survived it.
    for (const [page, removed] of await namesTheIndexDoesNotKnow(
      repo,
      wikiDir,
      withProse.map((entry) => entry.page),
    ))
      assert.deepEqual(removed, [], `${page}: every name in the saved prose exists`);

    const check = await runCli(['wiki', '--workspace', repo, '--check'], { env: env() });
    assert.equal(check.code, 0, `fresh after generation:\n${check.stdout}${check.stderr}`);
  });
});
