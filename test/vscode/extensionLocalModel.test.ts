import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { isProcessAlive } from '../../src/core/util/processLiveness';
import { pinnedModels, waitFor } from '../realModel/localModelServer';
import { cacheSharingModels } from '../realModel/sharedModelCache';
import { ensureCodeServer, packageVsix, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

/**
 * Issue 22 in a real VS Code: the packaged VSIX, installed into a fresh code-server profile with no endpoint, offers
 * the local model; once the user accepts, the extension starts serve.sh from the VSIX (the real llama-server, the
 * pinned fast test model from the shared cache), the status line names it, and a chat question is answered on it.
 */
vscodeSuite('the VSIX with no endpoint: the local model, offered, started and answering', function () {
  this.timeout(600_000);
  let browser: Browser;
  let workspace: string;
  let vsixDir: string;
  let vsix: string;
  let cache: ReturnType<typeof cacheSharingModels>;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const model = pinnedModels().fastTestModel;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    vsixDir = mkdtempSync(join(tmpdir(), 'codewiki-vsix-'));
    vsix = packageVsix(vsixDir);
    browser = await launchBrowser();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-local-ws-'));
    writeFileSync(join(workspace, 'README.md'), '# A small project\n');
    cache = cacheSharingModels();
  });

  afterEach(async function () {
    await saveFailureArtifacts(this.currentTest, workbench, server);
    await workbench?.close();
    await server?.stop();
    workbench = server = undefined;
  });

  after(async () => {
    await browser?.close();
    const record = readRecord();
    if (record && isProcessAlive(record.pid)) process.kill(-record.pid, 'SIGKILL'); // only after a failure
    cache?.cleanup();
    for (const dir of [workspace, vsixDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Every window's CodeWiki output channel, as VS Code logs it under the profile (data/logs/…/exthostN/…CodeWiki.log). */
  const outputChannels = (dir: string): string => {
    const logs: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(folder, entry.name));
        else if (entry.name.endsWith('CodeWiki.log')) logs.push(readFileSync(join(folder, entry.name), 'utf8'));
      }
    };
    walk(join(dir, 'data', 'logs'));
    return logs.join('\n');
  };

  const readRecord = (): { url: string; model: string; pid: number } | undefined => {
    const file = join(cache.dir, 'local-server', 'server.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { url: string; model: string; pid: number }) : undefined;
  };

  it('offers it, starts it when accepted, names it in the status line and answers a chat question on it; a second window reuses it; it stops with VS Code', async () => {
    server = await startCodeServer({
      workspace,
      trusted: true,
      vsix,
      // Nothing configured: no endpoint or model in the environment either. The cache shares the built server and weights.
      env: { CODEWIKI_CACHE_DIR: cache.dir, CODEWIKI_BASE_URL: '', CODEWIKI_MODEL: '', CODEWIKI_LOCAL_MODEL: '' },
      settings: { 'codewiki.localModel.model': model, 'codewiki.chat.mode': 'chat' },
    });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();

    const offer = workbench.page.locator('.notifications-toasts .notification-list-item', { hasText: 'Start the local model' });
    await offer.waitFor({ timeout: 60_000 });
    assert.match((await offer.textContent()) ?? '', new RegExp(`${model.replace(/\./g, '\\.')} on llama\\.cpp`));
    assert.equal(readRecord(), undefined, 'nothing starts before the user accepts');
    // The chat view's setup offers it too (for a dismissed notification).
    await view.locator('cw-empty-state .setup button.start-local-model').waitFor({ timeout: 30_000 });
    await offer.locator('.monaco-button', { hasText: /^Start Local Model$/ }).click();

    await view.locator('cw-status-bar', { hasText: `local · ${model} (llama.cpp)` }).waitFor({ timeout: 300_000 });
    const record = readRecord();
    assert.ok(record, 'the server is recorded for other windows and the CLI');
    assert.equal(record.model, model);
    assert.ok(isProcessAlive(record.pid));

    const composer = view.locator('cw-composer textarea');
    await composer.fill('Say hello in one short sentence.');
    await composer.press('Enter');
    const answer = view.locator('cw-message [data-kind=assistant]').last();
    await view.locator('cw-message [data-kind=assistant]:not([data-status=streaming])').last().waitFor({ timeout: 240_000 });
    assert.equal(await answer.getAttribute('data-status'), 'done', (await answer.textContent()) ?? '');
    assert.ok(((await answer.locator('.markdown').textContent()) ?? '').trim().length > 0, 'a non-empty answer');
    assert.match((await answer.locator('.head').textContent()) ?? '', new RegExp(model.replace(/\./g, '\\.')));
    const logs = readdirSync(join(cache.dir, 'logs')).filter((f) => f.startsWith('llama-server-'));
    assert.equal(logs.length, 1);
    assert.match(readFileSync(join(cache.dir, 'logs', logs[0]!), 'utf8'), /prompt eval time/, 'llama-server computed the answer');

    // A second window (its own extension host) finds the running server and uses it without asking.
    const second = await Workbench.open(browser, server.workbenchUrl());
    try {
      const secondView = await second.openCodeWikiView();
      await secondView.locator('cw-status-bar', { hasText: `local · ${model} (llama.cpp)` }).waitFor({ timeout: 60_000 });
      assert.equal(await second.page.locator('.notifications-toasts .notification-list-item', { hasText: 'Start the local model' }).count(), 0, 'no offer');
      assert.equal(readdirSync(join(cache.dir, 'logs')).filter((f) => f.startsWith('llama-server-')).length, 1, 'no second server');
      assert.equal(readRecord()?.pid, record.pid);
      // Each window's CodeWiki output channel says how it got the model: one started it, the other reused it.
      await waitFor(async () => /; reused, pid \d+\)/.test(outputChannels(server!.dir)), 'the second window to log the reuse', 30_000);
      assert.match(
        outputChannels(server.dir),
        new RegExp(`Local model: ${model.replace(/\./g, '\\.')} \\(llama\\.cpp at ${record.url.replace(/[.:/]/g, '\\$&')}; started, pid ${record.pid}\\)`),
      );
    } finally {
      await second.close();
    }

    await workbench.close();
    await server.stop();
    workbench = server = undefined;
    // The extension host is gone, and with it the only lease (a closed window's lingers half a minute for a reload).
    await waitFor(async () => !isProcessAlive(record.pid), 'llama-server to stop with VS Code', 90_000);
  });
});
