/**
 * `npm run test:desktop`: the extension-host suite (test/vscode/exthost/) in a desktop VS Code, through
 * @vscode/test-electron, for contributors whose machine can download VS Code. The same suite runs inside code-server
 * in `npm test` (test/vscode/extensionHostSuite.ts); this is the second host the design card names.
 *
 * test-electron downloads VS Code from update.code.visualstudio.com and caches it in .vscode-test/. Machines without
 * that address (our CI and sandboxes: no npm or Debian package ships a VS Code) get a clear message and exit code 2,
 * never a stack, so a script can tell "could not run" (2) from "tests failed" (1).
 */
import { join } from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { buildExtensionHostSuite } from '../../test/vscode/extensionHostBuild';

const REPO_ROOT = join(__dirname, '..', '..');

const version = process.env.CODEWIKI_DESKTOP_VSCODE ?? 'stable';

async function main(): Promise<number> {
  let vscodeExecutablePath: string;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version, timeout: 60_000 });
  } catch (error) {
    console.error(`test:desktop: could not download VS Code ${version} (${(error as Error).message.split('\n')[0]}).`);
    console.error('This machine cannot reach update.code.visualstudio.com; `npm test` runs the same suite in code-server.');
    return 2;
  }
  const extensionTestsPath = await buildExtensionHostSuite();
  try {
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath,
      extensionTestsEnv: { CODEWIKI_EXTHOST_PROBE: 'reached the extension host' },
      launchArgs: [join(REPO_ROOT, 'example-workspace'), '--disable-extensions', '--disable-workspace-trust'],
    });
    return 0;
  } catch (error) {
    console.error(`test:desktop: ${(error as Error).message}`);
    return 1;
  }
}

main().then((code) => process.exit(code));
