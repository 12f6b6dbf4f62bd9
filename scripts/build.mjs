// Bundles the extension, the CLI and the webview with esbuild, and emits the editor schema.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.env.NODE_ENV === 'production';
const require = createRequire(import.meta.url);
/**
 * web-tree-sitter's ES module build finds its wasm and `require` through `import.meta.url`, which a CommonJS
 * bundle does not have (Parser.init then fails); its CommonJS build does not need it, so bundles take that one.
 */
const treeSitterAsCommonJs = {
  name: 'web-tree-sitter-cjs',
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: require.resolve('web-tree-sitter') }));
  },
};
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [treeSitterAsCommonJs],
};

await Promise.all([
  build({ ...common, entryPoints: [join(root, 'src/extension/extension.ts')], outfile: join(root, 'dist/extension.js'), external: ['vscode'] }),
  build({ ...common, entryPoints: [join(root, 'src/cli/cli.ts')], outfile: join(root, 'dist/cli.js') }),
  // The codebase index runs in a worker thread of the extension host: its own bundle, beside extension.js.
  build({ ...common, entryPoints: [join(root, 'src/core/codebaseIndex/worker/indexWorkerMain.ts')], outfile: join(root, 'dist/indexWorker.js') }),
]);
copyTreeSitterWasm(join(root, 'dist/wasm'));
await (await import('../webview-ui/build.mjs')).buildWebview({ production });
chmodSync(join(root, 'dist/cli.js'), 0o755);
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/emit-schema.ts')], { stdio: 'inherit', cwd: root });

/** web-tree-sitter's runtime and the grammars the index loads (treeSitterRuntime.ts looks in dist/wasm first). */
function copyTreeSitterWasm(target) {
  mkdirSync(target, { recursive: true });
  copyFileSync(join(dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm'), join(target, 'web-tree-sitter.wasm'));
  const grammars = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  // regex.wasm parses regular expressions, not files; tree-sitter.js/.wasm are the package's own runtime, which web-tree-sitter replaces.
  for (const file of readdirSync(grammars)) {
    if (file.startsWith('tree-sitter-') && file.endsWith('.wasm') && file !== 'tree-sitter-regex.wasm') copyFileSync(join(grammars, file), join(target, file));
  }
}
