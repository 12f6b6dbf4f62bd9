// Bundles the sidebar webview (a Lit app) for the browser and ships the codicon font next to it.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/**
 * Writes `main.js`, `tester.js`, `wiki.js`, `codicon.css` and `codicon.ttf` to `outdir` (default `dist/webview/`).
 * Tests pass their own `outdir` so they never race a build of the extension.
 */
export async function buildWebview({ outdir = join(root, 'dist/webview'), production = process.env.NODE_ENV === 'production' } = {}) {
  mkdirSync(outdir, { recursive: true });
  // Three pages: the sidebar chat (main.js), the Tool Tester panel (tester.js) and the wiki panel (wiki.js, the only one with Mermaid).
  await build({
    entryPoints: { main: join(here, 'src/main.ts'), tester: join(here, 'src/tester/main.ts'), wiki: join(here, 'src/wiki/main.ts') },
    outdir,
    tsconfig: join(here, 'tsconfig.json'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    sourcemap: !production,
    minify: production,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // The icon font must be declared in the page (an @font-face inside shadow DOM is ignored), so the CSS ships as a file.
  const codicons = dirname(createRequire(import.meta.url).resolve('@vscode/codicons/dist/codicon.css'));
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, file), join(outdir, file));
  return { outdir, script: join(outdir, 'main.js') };
}
