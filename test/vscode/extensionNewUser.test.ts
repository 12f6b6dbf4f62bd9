import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { OpenAiTestServer } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

const LIST_PROMPT = [
  'title: List the files',
  'tool_chain:',
  '  - id: files',
  '    title: Collect the files',
  '    tool: list_files',
  '    input:',
  '      path: "."',
  '    output_variable: files',
  'llm_prompt_template:',
  '  human: "Summarize {files}"',
  '',
].join('\n');

/** Finds `name` below `dir` (the server's user data), breadth first. */
function findFolder(dir: string, name: string): string | undefined {
  const queue = [dir];
  while (queue.length) {
    const current = queue.shift()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(current, entry.name);
      if (entry.name === name) return path;
      queue.push(path);
    }
  }
  return undefined;
}

/** Issue 10 §3 in a real VS Code: the no-endpoint error, Open settings, and the run log's readable view. */
vscodeSuite('what a new user trips on, in real VS Code', function () {
  this.timeout(180_000);
  let browser: Browser;
  let workspace: string;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let llm: OpenAiTestServer | undefined;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    browser = await launchBrowser();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-newuser-ws-'));
    mkdirSync(join(workspace, '.codewiki/prompts'), { recursive: true });
    writeFileSync(join(workspace, '.codewiki/prompts/list-only.yaml'), LIST_PROMPT);
    writeFileSync(join(workspace, 'README.md'), '# project\n');
  });

  afterEach(async function () {
    await saveFailureArtifacts(this.currentTest, workbench, server);
    await workbench?.close();
    await server?.stop();
    workbench = server = undefined;
  });

  after(async () => {
    await browser?.close();
    await llm?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('without an endpoint the error speaks of settings, not CLI flags, and Open settings shows every CodeWiki setting', async () => {
    server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.chat.mode': 'chat' } });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-empty-state .setup').waitFor({ timeout: 30_000 });
    await view.locator('cw-composer textarea').fill('Hello');
    await view.locator('cw-composer textarea').press('Enter');
    const error = view.locator('cw-message [data-kind=assistant] .error-message');
    await error.waitFor({ timeout: 30_000 });
    const text = (await error.textContent()) ?? '';
    assert.doesNotMatch(text, /--model|CODEWIKI_MODEL|CLI/, text);
    assert.match(text, /CodeWiki › Model/);

    await view.locator('cw-empty-state button.open-settings').click();
    const settings = workbench.page.locator('.settings-editor');
    await settings.waitFor({ timeout: 30_000 });
    await workbench.page.locator('.settings-editor .settings-header .view-lines', { hasText: '@ext:codewiki.codewiki' }).waitFor({ timeout: 15_000 });
    // The extension filter lists every CodeWiki setting (the model beside the endpoint), not one setting by name.
    const titles = workbench.page.locator('.settings-editor .settings-body .setting-item-contents .setting-item-title');
    await titles.first().waitFor({ timeout: 15_000 });
    const shown = new Set(await titles.allTextContents());
    assert.ok(shown.size > 2, `several CodeWiki settings shown: ${[...shown].join(' | ')}`);
    assert.ok(
      [...shown].every((t) => t.startsWith('Codewiki')),
      [...shown].join(' | '),
    );
  });

  it('Open run log shows a readable page first (steps, status, tokens), named like the run_id, with the raw JSON one click further', async () => {
    llm = new OpenAiTestServer(() => ({ text: 'One file: README.md.' }));
    await llm.start();
    server = await startCodeServer({
      workspace,
      trusted: true,
      settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'main-model', 'codewiki.chat.mode': 'chat' },
    });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-status-bar', { hasText: 'main-model' }).waitFor({ timeout: 30_000 });
    await view.locator('cw-composer textarea').fill('/agent list-only');
    await view.locator('cw-composer textarea').press('Enter');
    const run = view.locator('[data-kind=prompt-run][data-status=done]');
    await run.waitFor({ timeout: 60_000 });
    assert.match((await run.locator('.run-summary').textContent()) ?? '', /Run: .*tokens/);
    await run.locator('button[data-action=runlog]').click();

    const runs = findFolder(server.dir, 'runs');
    assert.ok(runs, 'a runs folder in the extension storage');
    const json = readdirSync(runs).filter((f) => f.endsWith('.json'));
    assert.equal(json.length, 1);
    const runId = (JSON.parse(readFileSync(join(runs, json[0]), 'utf8')) as { run_id: string }).run_id;
    assert.equal(json[0], `${runId}.json`, 'the file is named after the run_id inside it');

    const preview = workbench.page
      .frameLocator('iframe.webview.ready[src*="extensionId=vscode.markdown-language-features"]')
      .frameLocator('iframe#active-frame');
    const page = preview.locator('body');
    await page.getByText('Collect the files').first().waitFor({ timeout: 30_000 });
    assert.ok(existsSync(join(runs, `${runId}.md`)), 'the readable page sits beside the JSON');
    const text = (await page.textContent()) ?? '';
    assert.match(text, /Steps/);
    assert.match(text, /list_files/);
    assert.match(text, /✓ done/);
    assert.match(text, /tokens/);
    assert.match(text, new RegExp(runId));
    await preview.locator('a', { hasText: 'Open the raw JSON' }).click();
    await workbench.page.locator('.tabs-container .tab', { hasText: `${runId}.json` }).waitFor({ timeout: 30_000 });
  });

  it('CodeWiki: Tool Tester opens from the palette and from the Tools panel: the tools and the exact prompt, live', async () => {
    server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.chat.mode': 'agent' } });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    await workbench.runCommand('CodeWiki: Tool Tester');
    const tab = workbench.page.locator('.tabs-container .tab', { hasText: 'CodeWiki: Tool Tester' });
    await tab.waitFor({ timeout: 30_000 });
    const tester = workbench.webview().locator('cw-tool-tester');
    await tester.locator('tr[data-tool=read_file]').waitFor({ timeout: 60_000 });
    assert.match((await tester.locator('pre.system-prompt').textContent()) ?? '', /README\.md/, 'the workspace layout is in the previewed prompt');
    assert.match((await tester.locator('pre.tools-json').textContent()) ?? '', /"name": "read_file"/);
    // The switch writes the user setting; the preview follows once VS Code reports the change.
    await tester.locator('tr[data-tool=read_file] input[role=switch]').uncheck();
    await tester.locator('pre.tools-json').filter({ hasNotText: '"name": "read_file"' }).waitFor({ timeout: 30_000 });
    const userSettings = JSON.parse(readFileSync(join(server.dir, 'data/User/settings.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(userSettings['codewiki.tools.toggles'], { read_file: false });

    await workbench.runCommand('View: Close All Editors');
    await tab.waitFor({ state: 'detached', timeout: 15_000 });
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-composer .tools-button').click();
    await view.locator('cw-tools-panel button.open-tester').click();
    await tab.waitFor({ timeout: 30_000 });
  });
});
