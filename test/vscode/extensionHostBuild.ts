import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundling the extension-host suite, apart from the code-server runner (extensionHostSuite.ts) so that
 * `npm run test:desktop` (scripts/vscode/test-desktop.ts) can build it outside mocha.
 */
const REPO_ROOT = join(__dirname, '..', '..');
export const SUITE_SOURCE = join(REPO_ROOT, 'test/vscode/exthost');
/** Where .vscode-test.mjs expects the suite. Test runs use their own folder: two runs at once must not share one. */
export const SUITE_OUT = join(REPO_ROOT, '.cache/exthost-tests');

/**
 * Bundles test/vscode/exthost/*.ts into outDir and returns its index.js. vscode and mocha stay external: the host
 * provides vscode, and mocha resolves from the repo's node_modules, so outDir must lie inside the repo.
 */
export async function buildExtensionHostSuite(outDir: string = SUITE_OUT): Promise<string> {
  rmSync(outDir, { recursive: true, force: true });
  const entryPoints = readdirSync(SUITE_SOURCE)
    .filter((f) => f === 'index.ts' || f.endsWith('.exthost.ts'))
    .map((f) => join(SUITE_SOURCE, f));
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return join(outDir, 'index.js');
}

/**
 * Bundles index.ts with one suite from a sub-folder of exthost/ (e.g. `multiRoot/multiRoot.exthost.ts`), flat in a new
 * folder inside the repo's .cache (mocha resolves from the repo's node_modules). The smoke suite does not run it.
 * Returns the folder; its index.js is the extensionTestsPath.
 */
export async function bundleOneSuite(suite: string): Promise<string> {
  mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
  const outDir = mkdtempSync(join(REPO_ROOT, '.cache/exthost-suite-'));
  await build({
    entryPoints: [join(SUITE_SOURCE, 'index.ts'), join(SUITE_SOURCE, suite)],
    entryNames: '[name]',
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outDir;
}
