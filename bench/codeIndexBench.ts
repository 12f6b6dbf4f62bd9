import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CodebaseIndex } from '../src/core/codebaseIndex/codebaseIndex';
import { WorkerCodeIndex } from '../src/core/codebaseIndex/worker/workerCodeIndex';
import { Workspace } from '../src/core/workspace';
import { type BenchRow, fmt, median } from './benchTable';
import { copyWithoutGit, evalReposDir, howToGet, loadEvalRepos } from './eval/evalRepos';

/** The large repository the index figures are measured on (5,457 files at the pinned commit; bench/eval/README.md). */
const LARGE = { repo: 'hashicorp/terraform', commit: '883c7221ee2e0bc2fad6912fd4b3cc4b53a598a7' };
const GROWTH_SIZES = [1_000, 2_000, 5_000, 10_000, 20_000];

/**
 * `npm run bench -- --only index`: the code index on a real repository of ~5,000 files, built the way
 * the extension builds it (in a worker thread, saved to disk), while this thread watches its own event
 * loop as the extension host's would be; then re-opened, one file changed, and queried; then the build
 * time per file as the repository grows from 1,000 to 20,000 files (copies of real files).
 */
export async function benchCodeIndex(): Promise<BenchRow[]> {
  const dir = join(evalReposDir(), LARGE.repo.replace('/', '+'));
  if (!existsSync(join(dir, '.git'))) {
    return [{ figure: 'code index on a 5,000-file repository', result: `skipped: ${howToGet(LARGE, dir)}`, goal: '—' }];
  }
  const store = mkdtempSync(join(tmpdir(), 'codewiki-bench-index-'));
  const copy = mkdtempSync(join(tmpdir(), 'codewiki-bench-repo-'));
  try {
    // A copy, so the changed-file figure never touches the evaluation's clone.
    copyWithoutGit(dir, copy);
    const rows = await largeRepository(copy, store);
    rows.push(...(await growth(copy)));
    return rows;
  } finally {
    rmSync(store, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
}

async function largeRepository(root: string, store: string): Promise<BenchRow[]> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const longest = longestTask();
  lag.enable();
  const cold = new WorkerCodeIndex({ roots: [root], workspaceOptions: {}, storeDir: store });
  let started = performance.now();
  const built = await cold.update();
  const coldMs = performance.now() - started;
  lag.disable();
  const taskMs = longest.stop();
  const heap = await cold.heapUsed();
  await cold.dispose();

  const reopened = new WorkerCodeIndex({ roots: [root], workspaceOptions: {}, storeDir: store });
  started = performance.now();
  const again = await reopened.update();
  const reopenMs = performance.now() - started;
  // A question the moment the index is open, while the worker readies itself (CodebaseIndex.prepareForQuestions); one
  // not among those timed below.
  const queries = benchQueries();
  started = performance.now();
  await reopened.searchCode('Where are provider plugins started and stopped?', { limit: 8 });
  const firstQueryMs = performance.now() - started;
  // The edits and queries below come once the worker is ready, as a user's do seconds later.
  await reopened.readyForQuestions();
  const readyMs = performance.now() - started;

  // Five edits of five files, one at a time as saves come: the first also loads the Go grammar into the worker.
  const changeTimes: number[] = [];
  for (const [n, file] of goFiles(root).slice(0, 5).entries()) {
    const changed = join(root, file);
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\nfunc benchAddedFunction${n}() {}\n`);
    started = performance.now();
    await reopened.refreshFiles([changed]);
    changeTimes.push(performance.now() - started);
  }
  started = performance.now();
  const found = await reopened.findSymbol('benchAddedFunction4');
  const afterChangeMs = performance.now() - started;
  const oneFileMs = median(changeTimes.slice(1));

  const searchTimes: number[] = [];
  for (const query of [...queries, ...queries]) {
    const t = performance.now();
    await reopened.searchCode(query, { limit: 8 });
    searchTimes.push(performance.now() - t);
  }
  const symbolTimes: number[] = [];
  for (const name of ['Context', 'ParseConfig', 'stateMgr', 'NewPlan', 'EvalContext', 'Resource', 'validateVariable', 'Apply']) {
    const t = performance.now();
    await reopened.findSymbol(name);
    symbolTimes.push(performance.now() - t);
  }
  const reopenedHeap = await reopened.heapUsed();
  await reopened.dispose();

  const files = built.indexedFiles;
  return [
    {
      figure: `index cold, ${LARGE.repo} (${files.toLocaleString('en-US')} files, ${built.symbols.toLocaleString('en-US')} definitions), worker thread`,
      result: `${fmt(coldMs / 1000)} s`,
      goal: '≤ 20 s for 4,400 files',
      met: coldMs <= 20_000 * (files / 4_400),
    },
    {
      figure: 'index re-opened from disk (load, walk, stat; nothing parsed)',
      result: `${fmt(reopenMs / 1000, 2)} s (${again.parsedFiles} parsed)`,
      goal: '≤ 1 s',
      met: reopenMs <= 1_000,
    },
    {
      figure: 'one changed file re-indexed (watcher → worker → done), median of 4',
      result: `${fmt(oneFileMs)} ms (the worker's first, with its grammar load: ${fmt(changeTimes[0]!)} ms); a query after it ${fmt(afterChangeMs)} ms${found[0] ? '' : ' (NOT FOUND)'}`,
      goal: '≤ 50 ms',
      met: oneFileMs <= 50 && found.length > 0,
    },
    {
      figure: `search_code p50 / p95 (${searchTimes.length} queries, with best lines)`,
      result: `${fmt(percentile(searchTimes, 50))} / ${fmt(percentile(searchTimes, 95))} ms (the first ${queries.length} alone: p95 ${fmt(percentile(searchTimes.slice(0, queries.length), 95))} ms)`,
      goal: 'p95 ≤ 20 ms',
      met: percentile(searchTimes, 95) <= 20,
    },
    {
      figure: 'a query the moment the index is re-opened, while the worker readies itself for questions',
      result: `${fmt(firstQueryMs)} ms (the worker ready ${fmt(readyMs, 0)} ms after that query was sent)`,
      goal: 'reported',
    },
    {
      figure: 'find_symbol p95 (exact, case, partial, fuzzy)',
      result: `${fmt(percentile(symbolTimes, 95))} ms`,
      goal: 'p95 ≤ 20 ms',
      met: percentile(symbolTimes, 95) <= 20,
    },
    {
      figure: 'index worker heap, readied for questions: after the cold build / after a re-open, the edits and queries above',
      result: `${fmt(heap / 1e6, 0)} / ${fmt(reopenedHeap / 1e6, 0)} MB`,
      goal: '≤ 150 MB',
      met: Math.max(heap, reopenedHeap) <= 150e6,
    },
    {
      figure: 'this thread while the worker indexed: longest task / event-loop delay p99',
      result: `${fmt(taskMs, 0)} ms / ${fmt(lag.percentile(99) / 1e6, 0)} ms`,
      goal: 'no task > 50 ms',
      met: taskMs <= 50,
    },
    { figure: 'saved index size', result: `${fmt((built.storedBytes ?? 0) / 1e6)} MB`, goal: 'reported' },
  ];
}

/** Cold in-process build time per file as the same kind of code grows; the log-log slope of total time against files is 1 when per-file time is flat. */
async function growth(source: string): Promise<BenchRow[]> {
  const sourceFiles = listFiles(source).filter((f) => f.endsWith('.go') || f.endsWith('.tf') || f.endsWith('.md'));
  const points: Array<{ files: number; ms: number }> = [];
  for (const size of GROWTH_SIZES) {
    const root = mkdtempSync(join(tmpdir(), 'codewiki-bench-growth-'));
    try {
      for (let i = 0; i < size; i++) {
        const from = sourceFiles[i % sourceFiles.length]!;
        const target = join(root, `copy${Math.floor(i / sourceFiles.length)}`, from);
        mkdirSync(join(target, '..'), { recursive: true });
        cpSync(join(source, from), target);
      }
      const index = new CodebaseIndex({ workspace: await Workspace.open(root) });
      const started = performance.now();
      const status = await index.update();
      points.push({ files: status.indexedFiles, ms: performance.now() - started });
      await index.dispose();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const slope = logLogSlope(points);
  const perFile = points.map((p) => `${p.files.toLocaleString('en-US')}: ${fmt(p.ms / p.files, 2)}`).join(', ');
  return [
    {
      figure: "index build time per file (ms) as files grow (copies of the repository's files)",
      result: `${perFile}; log-log slope ${fmt(slope, 2)}`,
      goal: 'flat (slope ≈ 1)',
      met: slope <= 1.15,
    },
  ];
}

function logLogSlope(points: Array<{ files: number; ms: number }>): number {
  const xs = points.map((p) => Math.log(p.files));
  const ys = points.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

/** The longest stretch this thread could not run a timer: what a user of the extension host would feel. */
function longestTask(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return worst;
    },
  };
}

function benchQueries(): string[] {
  const written = loadEvalRepos().flatMap((repo) => repo.questions.map((q) => q.question));
  return [...written, 'where is the state file locked', 'plan apply refresh', 'ProviderSchema', 'validate variable values', 'backend configuration'];
}

function goFiles(root: string): string[] {
  return listFiles(root).filter((f) => f.endsWith('.go') && !f.includes('testdata') && statSync(join(root, f)).size > 2_000);
}

function listFiles(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
