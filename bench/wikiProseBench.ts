import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_WIKI_FOLDER } from '../src/core/wiki/wikiLocation';
import { pinnedModels, startLocalModel } from '../test/realModel/localModelServer';
import { checkWikiLinks } from '../test/support/wikiLinks';
import { namesTheIndexDoesNotKnow } from '../test/support/wikiRecheck';
import { type BenchRow, fmt } from './benchTable';
import { evalReposDir, howToGet } from './eval/evalRepos';

/** A repository of over 2,000 files (3,778 at the pinned commit; bench/eval/questions). */
const REPO = { repo: 'typeorm/typeorm', commit: '' };
const CLI = process.env.CODEWIKI_EVAL_CLI ?? resolve(__dirname, '..', 'dist', 'cli.js');

/**
 * `npm run bench -- --only "wiki prose"`: the whole wiki of a 2,000+-file repository written on the default local
 * model, as `codewiki wiki` writes it: time, pages with prose, claims the trust check removed, links that do not
 * resolve. About half an hour on 2 cores.
 */
export async function benchWikiProse(): Promise<BenchRow[]> {
  const dir = join(evalReposDir(), REPO.repo.replace('/', '+'));
  if (!existsSync(join(dir, '.git'))) return [{ figure: 'wiki with prose on the local model', result: `skipped: ${howToGet(REPO, dir)}`, goal: '—' }];
  const copy = mkdtempSync(join(tmpdir(), 'codewiki-bench-wiki-prose-'));
  const cache = mkdtempSync(join(tmpdir(), 'codewiki-bench-wiki-cache-'));
  const server = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--n-predict', '512'] });
  try {
    execFileSync('sh', ['-c', `git -C '${dir}' archive HEAD | tar -x -C '${copy}'`]);
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'snapshot'],
    ])
      execFileSync('git', args, { cwd: copy });
    const files = execFileSync('git', ['ls-files'], { cwd: copy, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    const log = join(cache, 'wiki-log.json');
    const started = performance.now();
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [CLI, 'wiki', '--workspace', copy, '--base-url', server.baseUrl, '--model', server.model, '--log', log], {
        stdio: 'ignore',
        env: { ...process.env, CODEWIKI_CACHE_DIR: cache },
      });
      child.on('close', done);
    });
    const minutes = (performance.now() - started) / 60_000;
    const manifest = JSON.parse(readFileSync(join(copy, DEFAULT_WIKI_FOLDER, 'manifest.json'), 'utf8')) as { pages: Array<{ page: string; prose?: unknown }> };
    const removed = (JSON.parse(readFileSync(log, 'utf8')) as { warnings: string[] }).warnings
      .map((warning) => Number(/removed (\d+) sentence/.exec(warning)?.[1] ?? 0))
      .reduce((sum, n) => sum + n, 0);
    const links = checkWikiLinks(join(copy, DEFAULT_WIKI_FOLDER));
    const withProse = manifest.pages.filter((page) => page.prose).length;
    const recheck = await namesTheIndexDoesNotKnow(
      copy,
      join(copy, DEFAULT_WIKI_FOLDER),
      manifest.pages.filter((page) => page.prose).map((page) => page.page),
    );
    const unknownLeft = [...recheck.values()].reduce((sum, removed) => sum + removed.length, 0);
    return [
      {
        figure: `whole wiki with prose, ${REPO.repo} (${files.toLocaleString('en-US')} files), ${server.model}, codewiki wiki (exit ${code})`,
        result: `${fmt(minutes)} min; ${withProse} of ${manifest.pages.length} pages with prose`,
        goal: '≤ 30 min for 2,000 files',
        met: code === 0 && minutes <= 30 && withProse === manifest.pages.length,
      },
      {
        figure: 'its links followed / sentences removed for naming what does not exist',
        result: `${links.links.toLocaleString('en-US')} links, ${links.broken.length} broken / ${removed} removed; names on the pages the index does not know: ${unknownLeft}`,
        goal: '0 broken, 0 invented names',
        met: links.broken.length === 0 && unknownLeft === 0,
      },
    ];
  } finally {
    await server.stop();
    rmSync(copy, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}
