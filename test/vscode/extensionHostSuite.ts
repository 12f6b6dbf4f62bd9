import type { Browser } from 'playwright-core';
import { REPO_ROOT, startCodeServer, type CodeServerOptions } from './codeServer';
import { REPORT_TAG } from './exthost/index';

export { buildExtensionHostSuite, bundleOneSuite, SUITE_OUT } from './extensionHostBuild';

export interface ExtensionHostRun {
  exitCode: number;
  /** mocha's report from inside the extension host (the workbench's own console noise is left out). */
  output: string[];
}

/**
 * Runs a mocha suite inside the real extension host of code-server: the extensionTestsPath contract of test-electron,
 * without a desktop VS Code. code-server's web workbench honours extensionDevelopmentPath/extensionTestsPath passed in
 * the URL's `payload`, and with the smoke-test driver enabled it reports the suite's console output and exit code
 * through window.codeAutomationLog / window.codeAutomationExit, which Playwright exposes to Node.
 */
export async function runExtensionHostSuite(
  browser: Browser,
  options: { workspace: string; testsPath: string; extensionPath?: string; timeoutMs?: number } & Pick<CodeServerOptions, 'env' | 'settings' | 'trusted'>,
): Promise<ExtensionHostRun> {
  const extensionPath = options.extensionPath ?? REPO_ROOT;
  // The extension is loaded from extensionDevelopmentPath, so nothing is installed into the extensions folder.
  const server = await startCodeServer({ ...options, extensionPath: false, extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const output: string[] = [];
    let reportExit: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(code));
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
      const line = args.map(String).join(' ');
      if (line.startsWith(REPORT_TAG)) output.push(line.slice(REPORT_TAG.length));
    });

    const remote = (path: string) => `vscode-remote://${new URL(server.url).host}${path}`;
    const payload = [
      ['extensionDevelopmentPath', remote(extensionPath)],
      ['extensionTestsPath', remote(options.testsPath)],
    ];
    await page.goto(`${server.workbenchUrl(options.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);

    const timeoutMs = options.timeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the extension-host suite did not finish within ${timeoutMs} ms:\n${output.join('\n')}`)), timeoutMs);
    });
    const exitCode = await Promise.race([exited, timedOut]).finally(() => clearTimeout(timer));
    return { exitCode, output };
  } finally {
    await context.close();
    await server.stop();
  }
}
