import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerFileTools } from '../src/core/tools/file';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { Workspace } from '../src/core/workspace';
import { type BenchRow, fmt, median } from './benchTable';

const SAMPLES: Array<[string, (i: number) => string]> = [
  [
    'ts',
    (i) =>
      `/** Module ${i}. */\nimport { x } from './x';\nexport function f${i}(a: number): number {\n  return a + ${i};\n}\nexport class C${i} {}\n${'// filler line\n'.repeat(i % 60)}`,
  ],
  ['py', (i) => `"""Module ${i}."""\nimport os\n\ndef f${i}(a):\n    return a + ${i}\n\nclass C${i}:\n    pass\n${'# filler\n'.repeat(i % 80)}`],
  ['md', (i) => `# Doc ${i}\n\nSome text.\n\n## Section\n${'More text here.\n'.repeat(i % 40)}`],
  ['go', (i) => `// Package p${i} does things.\npackage p\n\nfunc F${i}() int { return ${i} }\n`],
];

/** A generated tree of `count` source files, 100 per folder. */
export function generateTree(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'codewiki-bench-tree-'));
  for (let i = 0; i < count; i++) {
    const dir = join(root, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const [ext, body] = SAMPLES[i % SAMPLES.length];
    writeFileSync(join(dir, `file${i}.${ext}`), body(i));
  }
  return root;
}

/** What any tool must at least do: list the files and read the first 4 KB of each, with bounded parallelism. */
async function baseline(root: string): Promise<number> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const buffer = () => Buffer.allocUnsafe(4096);
  let next = 0;
  const worker = async () => {
    const buf = buffer();
    while (next < files.length) {
      const handle = await open(files[next++], 'r');
      try {
        await handle.read(buf, 0, 4096, 0);
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return files.length;
}

export async function benchFileSummaries(options: { path?: string; files?: number; runs?: number } = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 3;
  const generated = options.path ? undefined : generateTree(options.files ?? 20_000);
  const root = options.path ?? generated!;
  try {
    const registry = new ToolRegistry();
    registerFileTools(registry, await Workspace.open(root));
    const summaries = registry.get('get_file_summaries')!.tool;
    const baseRates: number[] = [];
    const toolRates: number[] = [];
    let summarised = 0;
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const listed = await baseline(root);
      baseRates.push(listed / ((performance.now() - started) / 1000));
      started = performance.now();
      const result = (await summaries.invoke({ path: '.', max_files: 50_000 })) as { files: unknown[] };
      summarised = result.files.length;
      toolRates.push(summarised / ((performance.now() - started) / 1000));
    }
    const base = median(baseRates);
    const rate = median(toolRates);
    return [
      {
        figure: `get_file_summaries throughput (${summarised.toLocaleString('en-US')} files${options.path ? ` in ${options.path}` : ', generated tree'}, median of ${runs})`,
        result: `${fmt(rate, 0)} files/s vs baseline ${fmt(base, 0)} files/s = ${fmt(rate / base, 2)}×`,
        goal: '≥ 0.5× baseline',
        met: rate / base >= 0.5,
      },
    ];
  } finally {
    if (generated) rmSync(generated, { recursive: true, force: true });
  }
}
