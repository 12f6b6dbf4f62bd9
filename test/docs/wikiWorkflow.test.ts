import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPageParts } from '../../src/core/wiki/pages/pageSections';
import { OpenAiTestServer } from '../support/openaiServer';
import { makeTempFolder, type TempFolder } from '../tools/helpers/tempWorkspace';
import { shopRepoFiles } from './support/shopRepo';
import { gitIn, readWorkflow, WorkflowRunner, type JobRun } from './support/workflowRunner';

const ROOT = join(__dirname, '..', '..');
const WORKFLOW = join(ROOT, 'docs', 'examples', 'wiki-workflow.yml');
const MODEL = 'wiki-test-model';

/** The prose a model wrote for a page, as saved on it (without the attribution line); undefined when none has. */
function proseOf(text: string): string | undefined {
  const parts = readPageParts(text);
  return parts.meta?.prose ? parts.prose?.split('\n\n_Written by')[0] : undefined;
}

function modulePagesIn(wikiDir: string): string[] {
  if (!existsSync(join(wikiDir, 'modules'))) return [];
  return readdirSync(join(wikiDir, 'modules'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `modules/${file}`)
    .sort();
}

/**
 * docs/examples/wiki-workflow.yml, run job by job as GitHub would: the check on a push, the four shard jobs each
 * in its own clone against one scripted OpenAI-compatible server, their artifacts merged in the publish job, and
 * the check of the next push after the pull request is merged.
 */
describe('docs/examples/wiki-workflow.yml, run for real', function () {
  this.timeout(240_000);

  let repo: TempFolder;
  let artifactsDir: string;
  let server: OpenAiTestServer;
  let runner: WorkflowRunner | undefined;
  /** Every prose request: the page it was for and the answer given. */
  const answers: Array<{ page: string; prose: string }> = [];

  before(async () => {
    repo = makeTempFolder('codewiki-wiki-workflow-');
    repo.write(shopRepoFiles());
    await gitIn(repo.path, 'init', '-q', '-b', 'main');
    await gitIn(repo.path, 'add', '-A');
    await gitIn(repo.path, 'commit', '-q', '-m', 'shop');
    artifactsDir = mkdtempSync(join(tmpdir(), 'codewiki-artifacts-'));
    server = new OpenAiTestServer(
      (request) => {
        const page = /Write the overview for the wiki page (\S+) in at most/.exec(request.promptText)?.[1];
        if (!page) return { status: 400, body: { error: { message: `not a wiki page prompt: ${request.promptText.slice(0, 200)}` } } };
        const prose = `Scripted overview number ${answers.length + 1}, for one page only.`;
        answers.push({ page, prose });
        return { text: prose };
      },
      [MODEL],
    );
    await server.start();
  });

  after(async () => {
    await server?.close();
    runner?.cleanup();
    repo?.cleanup();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('is the workflow docs/wiki.md shows', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'wiki.md'), 'utf8');
    assert.ok(doc.includes(`\`\`\`yaml\n${readFileSync(WORKFLOW, 'utf8')}\`\`\`\n`), 'docs/wiki.md shows another version of the workflow');
  });

  it('checks, writes each stale page in exactly one shard, merges them, and leaves a wiki the next check passes', async () => {
    const workflow = readWorkflow(WORKFLOW);
    const sha = await gitIn(repo.path, 'rev-parse', 'HEAD');
    let merged: string | undefined;
    runner = new WorkflowRunner(workflow, {
      repository: () => merged ?? repo.path,
      context: {
        'vars.CODEWIKI_BASE_URL': server.url,
        'vars.CODEWIKI_MODEL': MODEL,
        'secrets.CODEWIKI_API_KEY': '',
        'github.sha': sha,
        'github.ref_name': 'main',
        'github.event.repository.default_branch': 'main',
      },
      artifactsDir,
      onPullRequest: (workspace, inputs) => {
        const changed = execFileSync('git', ['status', '--porcelain', '--', inputs['add-paths']!], { cwd: workspace, encoding: 'utf8' });
        assert.ok(changed.trim(), 'the pull request would be empty');
        merged = workspace; // the next push is this branch, merged
      },
    });
    assert.deepEqual(Object.keys(workflow.jobs), ['check', 'prose', 'publish']);

    // The push: nothing written yet, so the check says stale and lists the pages.
    const check = await runner.runJob('check');
    assert.deepEqual(check.cliCalls, [{ args: 'wiki --check', status: 1 }]);
    assert.equal(check.outputs.stale, 'true');
    assert.match(check.summary, /stale pages? in \.codewiki\/wiki:\n\s+index\.md: not written yet/);
    assert.ok(runner.jobRuns('prose', { check: check.outputs }) && runner.jobRuns('publish', { check: check.outputs }));

    // The shard jobs, each in its own clone; the requests each one made are its pages.
    const shards = workflow.jobs.prose!.strategy!.matrix!.shard!.map(String);
    assert.deepEqual(shards, ['1', '2', '3', '4']);
    const pagesByShard = new Map<string, string[]>();
    const shardRuns = new Map<string, JobRun>();
    for (const shard of shards) {
      const before = answers.length;
      const run = await runner.runJob('prose', { matrix: { shard }, needs: { check: check.outputs } });
      assert.deepEqual(
        run.cliCalls.map((call) => [call.status, call.args.replace(/--log \S+/, '--log LOG')]),
        [[0, `wiki --shard ${shard}/4 --base-url ${server.url} --model ${MODEL} --log LOG`]],
      );
      pagesByShard.set(
        shard,
        answers.slice(before).map((answer) => answer.page),
      );
      shardRuns.set(shard, run);
    }
    const written = [...pagesByShard.values()].flat();
    assert.equal(new Set(written).size, written.length, `no page written by two shards: ${written.join(', ')}`);
    assert.ok([...pagesByShard.values()].filter((pages) => pages.length > 0).length > 1, 'the work was split');

    // A shard writes only its own pages (so copying the artifacts merges them in any order), each with prose.
    for (const [shard, run] of shardRuns) {
      const wikiDir = join(run.workspace, '.codewiki', 'wiki');
      assert.deepEqual(modulePagesIn(wikiDir), [...pagesByShard.get(shard)!].sort(), `shard ${shard} wrote only its pages`);
      const withProse = modulePagesIn(wikiDir).filter((page) => proseOf(readFileSync(join(wikiDir, page), 'utf8')) !== undefined);
      assert.deepEqual(withProse, [...pagesByShard.get(shard)!].sort(), `shard ${shard}'s pages with prose`);
      const uploaded = pagesByShard.get(shard)!.length ? modulePagesIn(join(artifactsDir, `wiki-pages-${shard}`)) : [];
      assert.deepEqual(uploaded, [...pagesByShard.get(shard)!].sort(), `shard ${shard}'s artifact`);
    }

    // Publish: merge the artifacts, write only the overview, check, and open the pull request.
    const beforePublish = answers.length;
    const publish = await runner.runJob('publish', { needs: { check: check.outputs, prose: {} } });
    assert.deepEqual(publish.cliCalls, [
      { args: 'wiki --structure-only', status: 0 },
      { args: `wiki --base-url ${server.url} --model ${MODEL}`, status: 0 },
      { args: 'wiki --check', status: 0 },
    ]);
    assert.deepEqual(
      answers.slice(beforePublish).map((answer) => answer.page),
      ['index.md'],
      'publish writes the overview only',
    );
    assert.ok(merged, 'publish opened a pull request');
    const wikiDir = join(merged, '.codewiki', 'wiki');
    const modulePages = modulePagesIn(wikiDir);
    assert.equal(modulePages.length, 5, `module pages: ${modulePages.join(', ')}`);
    assert.deepEqual([...written].sort(), modulePages, 'every module page written once, and no overview, across the shards');
    for (const { page, prose } of answers) assert.equal(proseOf(readFileSync(join(wikiDir, page), 'utf8')), prose, `${page} keeps its shard's prose`);
    const manifest = JSON.parse(readFileSync(join(wikiDir, 'manifest.json'), 'utf8')) as { pages: Array<{ page: string; prose?: { model: string } }> };
    assert.deepEqual(manifest.pages.map((entry) => [entry.page, entry.prose?.model]).sort(), ['index.md', ...modulePages].map((page) => [page, MODEL]).sort());

    // The pull request merged, the next push's check finds nothing stale and nothing regenerates.
    await gitIn(merged, 'add', '.codewiki/wiki');
    await gitIn(merged, 'commit', '-q', '-m', 'wiki: regenerate stale pages');
    const next = await runner.runJob('check');
    assert.deepEqual(next.cliCalls, [{ args: 'wiki --check', status: 0 }]);
    assert.equal(next.outputs.stale, 'false');
    assert.equal(runner.jobRuns('prose', { check: next.outputs }), false);
  });
});
