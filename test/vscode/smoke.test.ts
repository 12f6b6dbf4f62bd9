import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureCodeServer, REPO_ROOT, startCodeServer, vscodeSuite, vscodeSuitesSkipped, type CodeServer } from './codeServer';
import { buildExtensionHostSuite, runExtensionHostSuite } from './extensionHostSuite';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

/**
 * Proves the real-VS Code harness end to end: code-server starts with the built extension, the workbench loads in
 * chromium, the CodeWiki container is in the activity bar, its webview resolves (the provider is registered in
 * activate(), so this proves activation), the palette runs our commands, a reload brings the webview back, and a
 * restricted workspace stays restricted until trusted; and a mocha suite runs inside the real extension host.
 * Runs in CI, installing code-server on first use.
 */
const title = vscodeSuitesSkipped
  ? 'real VS Code smoke test: SKIPPED because code-server is not installed and CODEWIKI_SKIP_VSCODE_TESTS=1'
  : 'real VS Code (code-server) smoke test';

vscodeSuite(title, function () {
  this.timeout(120_000);
  let browser: Browser;
  let workspace: string;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  before(async function () {
    this.timeout(30 * 60_000); // a cold install builds native modules: about 2 minutes, more on a loaded machine
    ensureCodeServer();
    browser = await launchBrowser();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-smoke-ws-'));
    writeFileSync(join(workspace, 'README.md'), '# Smoke test workspace\n');
  });

  afterEach(async function () {
    await saveFailureArtifacts(this.currentTest, workbench, server);
    await workbench?.close();
    await server?.stop();
    workbench = server = undefined;
  });

  after(async () => {
    await browser?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('activates CodeWiki in a trusted folder, runs its commands and survives a reload', async () => {
    server = await startCodeServer({ workspace, trusted: true });
    workbench = await Workbench.open(browser, server.workbenchUrl());

    await workbench.activityBarItem('CodeWiki').waitFor({ timeout: 30_000 });
    const view = await workbench.openCodeWikiView();
    // The app renders text once it runs; the exact wording belongs to the webview's own tests.
    await view.locator('cw-app', { hasText: /\S/ }).first().waitFor({ timeout: 30_000 });
    assert.equal(await workbench.restrictedModeIndicator().count(), 0, 'a trusted folder shows no Restricted Mode');

    await workbench.runCommand('CodeWiki: New Chat');

    await workbench.reload();
    await workbench.waitForWebview(); // the sidebar is restored open, so the view resolves again by itself
    await workbench.webview().locator('cw-app', { hasText: /\S/ }).first().waitFor({ timeout: 30_000 });
  });

  it('opens an untrusted folder in Restricted Mode without a prompt, and trusting it lifts the mode', async () => {
    server = await startCodeServer({ workspace, trusted: false });
    workbench = await Workbench.open(browser, server.workbenchUrl());

    await workbench.restrictedModeIndicator().waitFor({ timeout: 30_000 });
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'no trust prompt blocks the workbench');
    // capabilities.untrustedWorkspaces is "limited": the extension still runs in Restricted Mode.
    await workbench.openCodeWikiView();

    await workbench.trustWorkspace();
    assert.equal(await workbench.restrictedModeIndicator().count(), 0);
  });

  it('runs a mocha suite inside the real extension host (extensionTestsPath)', async () => {
    mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
    const outDir = mkdtempSync(join(REPO_ROOT, '.cache/exthost-tests-'));
    try {
      const testsPath = await buildExtensionHostSuite(outDir);
      const run = await runExtensionHostSuite(browser, { workspace, testsPath, env: { CODEWIKI_EXTHOST_PROBE: 'reached the extension host' } });
      assert.equal(run.exitCode, 0, `the extension-host suite failed:\n${run.output.join('\n')}`);
      assert.match(run.output.join('\n'), /\d+ passing/);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
