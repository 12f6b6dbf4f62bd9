import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

const BROKEN = 'title: Team review\ntool_chain:\n  - tool: no_such_tool\n    output_variable: x\n';
const FIXED = 'title: Team review\ntool_chain:\n  - tool: list_files\n    output_variable: x\nllm_prompt_template:\n  human: "{x}"\n';

/** Issue 3 §6: workspace prompts reload when their files change, and their problems reach the Problems panel. */
vscodeSuite('workspace action prompts in real VS Code', function () {
  this.timeout(180_000);
  let browser: Browser;
  let workspace: string;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    browser = await launchBrowser();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-prompts-ws-'));
    mkdirSync(join(workspace, '.codewiki/prompts/team'), { recursive: true });
    writeFileSync(join(workspace, 'README.md'), '# project\n');
  });

  afterEach(async function () {
    await saveFailureArtifacts(this.currentTest, workbench, server);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await browser?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('a new invalid prompt is listed with its error and shown in Problems at its line; fixing it reloads it', async () => {
    server = await startCodeServer({ workspace, trusted: true });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();
    const composer = view.locator('cw-composer textarea');
    await composer.fill('/agent');
    await composer.press('Enter');
    await view.locator('cw-prompt-picker li[data-prompt="module-design-doc"]').waitFor({ timeout: 30_000 });
    assert.equal(await view.locator('cw-prompt-picker li[data-prompt="review"]').count(), 0);

    writeFileSync(join(workspace, '.codewiki/prompts/team/review.yaml'), BROKEN);
    const entry = view.locator('cw-prompt-picker li[data-prompt="review"]');
    await entry.locator('.prompt-error').waitFor({ timeout: 30_000 });
    assert.match((await entry.locator('.prompt-error').textContent()) ?? '', /tool_chain\[0\]\.tool: unknown tool "no_such_tool"/);
    // Issue 10 §3: the location relative to the workspace, the nearest tool names rather than all of them.
    assert.equal(await entry.locator('.where').textContent(), 'line 3');
    const full = (await entry.getAttribute('title')) ?? '';
    assert.match(full, /^\.codewiki\/prompts\/team\/review\.yaml:3:11: /, full);
    assert.doesNotMatch(full, /known tools|read_file, /, full);

    await entry.click({ force: true }); // aria-disabled: it cannot run, but a click opens the file at the error
    await workbench.page.locator('.tabs-container .tab.active', { hasText: 'review.yaml' }).waitFor({ timeout: 30_000 });
    await workbench.page.locator('.statusbar-item', { hasText: /Ln 3, Col 1/ }).waitFor({ timeout: 15_000 });

    await workbench.page.keyboard.press('Control+Shift+M'); // View: Problems
    const problem = workbench.page.locator('.markers-panel .monaco-list-row', { hasText: 'unknown tool "no_such_tool"' });
    await problem.waitFor({ timeout: 30_000 });
    assert.match((await problem.textContent()) ?? '', /Ln 3, Col 11/);

    writeFileSync(join(workspace, '.codewiki/prompts/team/review.yaml'), FIXED);
    await entry.locator('.prompt-error').waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await entry.getAttribute('aria-disabled'), 'false');
    await problem.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
