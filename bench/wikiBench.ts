import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodebaseIndex } from '../src/core/codebaseIndex/codebaseIndex';
import { CodeWiki } from '../src/core/wiki/codeWiki';
import { DEFAULT_WIKI_FOLDER } from '../src/core/wiki/wikiLocation';
import { Workspace } from '../src/core/workspace';
import { type BenchRow, fmt } from './benchTable';
import { copyWithoutGit, evalReposDir, howToGet } from './eval/evalRepos';
import { checkWikiLinks } from '../test/support/wikiLinks';

/** The large repository of the index figures (5,457 files at the pinned commit; bench/eval/README.md). */
const LARGE = { repo: 'hashicorp/terraform', commit: '883c7221ee2e0bc2fad6912fd4b3cc4b53a598a7' };

/**
 * `npm run bench -- --only wiki`: the wiki's structure (no model) on a ~5,000-file repository: from
 * nothing (index build included, as a first Generate Wiki), from a ready index, and again after one file
 * changed, with how many pages each run wrote and whether every link resolves.
 */
export async function benchWikiStructure(): Promise<BenchRow[]> {
  const dir = join(evalReposDir(), LARGE.repo.replace('/', '+'));
  if (!existsSync(join(dir, '.git'))) return [{ figure: 'wiki structure on a 5,000-file repository', result: `skipped: ${howToGet(LARGE, dir)}`, goal: '—' }];
  const copy = mkdtempSync(join(tmpdir(), 'codewiki-bench-wiki-'));
  const store = mkdtempSync(join(tmpdir(), 'codewiki-bench-wiki-index-'));
  try {
    copyWithoutGit(dir, copy);
    const workspace = await Workspace.open(copy);
    const index = new CodebaseIndex({ workspace, storeDir: store });
    const wiki = new CodeWiki({ workspace, codeIndex: index, wikiDir: join(copy, DEFAULT_WIKI_FOLDER) });
    let started = performance.now();
    const cold = await wiki.updateStructure();
    const coldMs = performance.now() - started;
    started = performance.now();
    const warm = await wiki.updateStructure();
    const warmMs = performance.now() - started;
    const changed = join(
      copy,
      cold.wiki.modules.find((module) => module.files.some((path) => path.endsWith('.go')))!.files.find((path) => path.endsWith('.go'))!,
    );
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\nfunc benchWikiAddedFunction() {}\n`);
    started = performance.now();
    await index.refreshFiles([changed]);
    const again = await wiki.updateStructure();
    const againMs = performance.now() - started;
    await index.dispose();
    const links = checkWikiLinks(join(copy, DEFAULT_WIKI_FOLDER));
    const files = cold.wiki.codeFiles;
    return [
      {
        figure: `wiki structure from nothing, ${LARGE.repo} (index build included; ${files.toLocaleString('en-US')} code files → ${cold.wiki.modules.length} modules, ${cold.written.length} pages)`,
        result: `${fmt(coldMs / 1000)} s`,
        goal: '≤ 30 s for 4,400 files',
        met: coldMs <= 30_000,
      },
      { figure: 'wiki structure again, nothing changed (pages written)', result: `${fmt(warmMs / 1000, 2)} s (${warm.written.length})`, goal: 'reported' },
      {
        figure: 'wiki structure after one file changed (re-index it, rewrite its pages)',
        result: `${fmt(againMs / 1000, 2)} s (${again.written.length} page${again.written.length === 1 ? '' : 's'} written: ${again.written.join(', ')})`,
        goal: '≤ 2 s',
        met: againMs <= 2_000,
      },
      {
        figure: 'wiki links followed (file exists, #L line inside it)',
        result: `${links.links.toLocaleString('en-US')} links, ${links.broken.length} broken${links.broken.length ? `: ${links.broken.slice(0, 3).join('; ')}` : ''}`,
        goal: '0 broken',
        met: links.broken.length === 0,
      },
    ];
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  }
}
