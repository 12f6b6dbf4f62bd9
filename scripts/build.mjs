// Bundles the extension, the CLI and the webview with esbuild, and emits the editor schema.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.env.NODE_ENV === 'production';
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

await Promise.all([
  build({ ...common, entryPoints: [join(root, 'src/extension/extension.ts')], outfile: join(root, 'dist/extension.js'), external: ['vscode'] }),
  build({ ...common, entryPoints: [join(root, 'src/cli/cli.ts')], outfile: join(root, 'dist/cli.js') }),
]);
await (await import('../webview-ui/build.mjs')).buildWebview({ production });
chmodSync(join(root, 'dist/cli.js'), 0o755);
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/emit-schema.ts')], { stdio: 'inherit', cwd: root });
