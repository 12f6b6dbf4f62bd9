import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { REPO_ROOT, type CodeServer } from './codeServer';

/**
 * Drives the code-server workbench with Debian's chromium through playwright-core (Playwright's own browser
 * download is unreachable here). Selectors are the ones measured on VS Code 1.139 (test/vscode/README.md).
 */
export const CHROMIUM_PATH = process.env.CODEWIKI_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = process.env.CODEWIKI_TEST_ARTIFACTS ?? join(REPO_ROOT, '.cache/vscode-test-artifacts');
export const EXTENSION_ID = 'codewiki.codewiki';

/** Every launch gets a fresh profile (launch() refuses --user-data-dir), so no trust or view state leaks between tests. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export class Workbench {
  private constructor(readonly page: Page) {}

  /** Opens a workbench URL (CodeServer.workbenchUrl()) in a new browser context and waits for the workbench. */
  static async open(browser: Browser, url: string): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const workbench = new Workbench(await context.newPage());
    await workbench.page.goto(url);
    await workbench.waitForWorkbench();
    return workbench;
  }

  /** Activity bar item of the view container titled `title` (its aria-label starts with the title, then the keybinding). */
  activityBarItem(title: string): Locator {
    return this.page.locator(`.activitybar a.action-label[aria-label^="${title}"]`);
  }

  /**
   * Shows the CodeWiki sidebar and returns the webview's document. Clicking an active container's item would hide it
   * (after a reload the sidebar comes back open), so it only clicks when the container is not already shown.
   */
  async openCodeWikiView(): Promise<FrameLocator> {
    const item = this.activityBarItem('CodeWiki');
    await item.waitFor({ timeout: 30_000 });
    const tab = item.locator('xpath=..'); // the li carries aria-expanded, the a carries the title
    if ((await tab.getAttribute('aria-expanded')) !== 'true') await item.click();
    await this.waitForWebview();
    return this.webview();
  }

  /** The extension's webview document: outer iframe per extension, inner #active-frame holds our HTML. */
  webview(): FrameLocator {
    return this.page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
  }

  /** Resolves when the webview's HTML is loaded; the view provider is registered on activation, so this also proves it. */
  async waitForWebview(timeout = 60_000): Promise<void> {
    await this.webview().locator('body').waitFor({ state: 'attached', timeout });
  }

  /**
   * Runs a command through the palette by its full title, e.g. "CodeWiki: New Chat" or "Developer: Reload Window".
   * Early in startup a command may not be registered yet and the open palette does not refresh, so it retries, as it
   * does when the palette did not open.
   */
  async runCommand(title: string, timeout = 45_000, opensInput = false): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    // Match the label exactly: "Reload Window" must not pick "Reload Window With Extensions Disabled".
    const label = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const row = widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: label }) })
      .first();
    const deadline = Date.now() + timeout;
    for (;;) {
      // F1 while a previous quick pick is still fading out would close it instead of opening the palette.
      await widget.waitFor({ state: 'hidden', timeout: 10_000 });
      await this.page.keyboard.press('F1');
      try {
        // F1 can go unanswered (seen with Workspace Trust's modal editor just closed over the workbench): press it again.
        await widget.locator('input').fill(`>${title}`, { timeout: 5_000 });
        await row.waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        await this.page.keyboard.press('Escape');
        if (Date.now() > deadline) throw new Error(`command "${title}" not found in the palette`, { cause: error });
      }
    }
    await row.click();
    // A command that asks for input (an input box or quick pick) keeps the widget open for its own question.
    if (!opensInput) await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /**
   * Reloads the window the way a user does (palette, workbench.action.reloadWindow). In the browser this reloads the
   * page, so it waits for the main frame to navigate and the workbench to come back; webviews resolve again after that.
   */
  async reload(): Promise<void> {
    const navigated = this.page.waitForEvent('framenavigated', { predicate: (frame) => frame === this.page.mainFrame(), timeout: 30_000 });
    // Together, so a failing command does not leave the navigation wait to reject unhandled.
    await Promise.all([navigated, this.runCommand('Developer: Reload Window')]);
    await this.waitForWorkbench();
  }

  /** VS Code's status bar item shown while the folder is in Restricted Mode (CodeServerOptions.trusted: false). */
  restrictedModeIndicator(): Locator {
    return this.page.locator('[id="status.workspaceTrust"]');
  }

  /**
   * Trusts the open folder as a user does (Manage Workspace Trust, then Trust); extensions get onDidGrantWorkspaceTrust.
   * The decision is stored in the browser profile per host:port and path: it survives reload(), not a new Workbench.
   */
  async trustWorkspace(): Promise<void> {
    await this.runCommand('Workspaces: Manage Workspace Trust');
    await this.page
      .locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ })
      .first()
      .click();
    await this.restrictedModeIndicator().waitFor({ state: 'detached', timeout: 15_000 });
    await this.runCommand('View: Close Editor'); // the trust editor opens as a modal over the workbench
  }

  /** Toast notifications, e.g. to assert on an error the extension shows with showErrorMessage. */
  notifications(): Locator {
    return this.page.locator('.notifications-toasts .notification-list-item');
  }

  async screenshot(file: string): Promise<string> {
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }

  private async waitForWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  }
}

/**
 * For a mocha afterEach: when the current test failed, saves a screenshot and the server's logs (extension host log
 * included) under ARTIFACTS_DIR and returns the folder; otherwise does nothing.
 */
export async function saveFailureArtifacts(test: Mocha.Test | undefined, workbench?: Workbench, server?: CodeServer): Promise<string | undefined> {
  if (!test || test.state !== 'failed') return undefined;
  const dir = join(
    ARTIFACTS_DIR,
    `${test
      .fullTitle()
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 100)}-${Date.now()}`,
  );
  mkdirSync(dir, { recursive: true });
  await workbench?.screenshot(join(dir, 'screenshot.png')).catch((e: unknown) => console.error(`screenshot failed: ${String(e)}`));
  if (server) {
    if (existsSync(server.logFile)) cpSync(server.logFile, join(dir, 'server.log'));
    const logs = join(server.dir, 'data/logs');
    if (existsSync(logs)) cpSync(logs, join(dir, 'logs'), { recursive: true });
  }
  console.error(`    failure artifacts: ${dir}`);
  return dir;
}
