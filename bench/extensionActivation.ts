import { build } from 'esbuild';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { type BenchRow, fmt, median } from './benchTable';

const ROOT = join(__dirname, '..');

/**
 * A stand-in `vscode` module: each namespace the extension touches is a no-op proxy. Activation
 * only wires things up (the history store and the engine open on first use), so this measures
 * what activation costs us: loading the bundle and running activate(). The real host adds its own,
 * constant overhead on top.
 */
function fakeVscode(): Record<string, unknown> {
  const handler: ProxyHandler<object> = {
    get: (_target, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : proxy),
    apply: () => proxy,
    construct: () => proxy as object,
  };
  const proxy: unknown = new Proxy(function () {}, handler);
  const names = ['window', 'workspace', 'commands', 'languages', 'env', 'Uri', 'EventEmitter', 'Position', 'Range', 'Diagnostic', 'DiagnosticSeverity'];
  return Object.fromEntries(names.map((name) => [name, proxy]));
}

export async function benchExtensionActivation(runs = 7): Promise<BenchRow[]> {
  const out = mkdtempSync(join(tmpdir(), 'codewiki-bench-ext-'));
  try {
    const outfile = join(out, 'extension.js');
    await build({
      entryPoints: [join(ROOT, 'src/extension/extension.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      external: ['vscode'],
      logLevel: 'silent',
    });
    const bytes = statSync(outfile).size;
    const gzipped = gzipSync(readFileSync(outfile)).length;
    const resolver = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const originalLoad = resolver._load;
    const vscode = fakeVscode();
    resolver._load = (request, ...rest) => (request === 'vscode' ? vscode : originalLoad(request, ...rest));
    const loads: number[] = [];
    const activations: number[] = [];
    try {
      for (let run = 0; run < runs; run++) {
        delete require.cache[outfile];
        let started = performance.now();
        const extension = require(outfile) as { activate(context: unknown): void };
        loads.push(performance.now() - started);
        started = performance.now();
        extension.activate(
          new Proxy(
            { subscriptions: [], extensionPath: ROOT, extensionUri: vscode.Uri, globalStorageUri: { fsPath: out }, secrets: vscode.window },
            { get: (t, k) => (k in t ? (t as Record<string | symbol, unknown>)[k] : vscode.window) },
          ),
        );
        activations.push(performance.now() - started);
      }
    } finally {
      resolver._load = originalLoad;
    }
    return [
      {
        figure: 'dist/extension.js size (production build, minified)',
        result: `${fmt(bytes / 1024 / 1024, 2)} MB (${fmt(gzipped / 1024, 0)} KB gzipped)`,
        goal: 'report',
      },
      {
        figure: `Extension activation (Node, stub vscode API; first load / median of ${runs - 1} warm)`,
        result: `load ${fmt(loads[0], 0)} ms + activate() ${fmt(activations[0], 1)} ms cold; activate() ${fmt(median(activations.slice(1)), 2)} ms warm`,
        goal: 'report',
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
