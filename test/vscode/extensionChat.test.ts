import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { OpenAiTestServer } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

const SEED = join(__dirname, '..', 'fixtures', 'seed-001-module-design.yaml');

/**
 * The extension in a real VS Code (code-server), pointed at a scripted OpenAI-protocol server:
 * a chat that streams, seed 001's /agent prompt run through the form with live steps, and both
 * conversations found again in the history after a window reload, steps included.
 */
vscodeSuite('extension in real VS Code: chat, /agent and history', function () {
  this.timeout(180_000);
  let browser: Browser;
  let llm: OpenAiTestServer;
  let workspace: string;
  let server: CodeServer;
  let workbench: Workbench;
  let view: FrameLocator;

  before(async function () {
    this.timeout(30 * 60_000); // first use installs code-server
    ensureCodeServer();
    llm = new OpenAiTestServer((request) => {
      if (request.body?.model === 'tool-model') return { text: 'src/mod/core.ts' };
      if (/CORE_BODY/.test(request.promptText)) return { chunks: ['# 设计文档', '\n\n核心模块', '负责处理请求。'], chunkDelayMs: 250 };
      return { chunks: ['Hello', ' from', ' the scripted', ' model.'], chunkDelayMs: 250 };
    });
    await llm.start();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-ws-'));
    mkdirSync(join(workspace, 'src/mod'), { recursive: true });
    writeFileSync(join(workspace, 'src/mod/core.ts'), '/** The core. */\nexport function core() {\n  return "CORE_BODY";\n}\n');
    writeFileSync(join(workspace, 'src/mod/helper.ts'), 'export const helper = 1;\n');
    mkdirSync(join(workspace, '.codewiki/prompts'), { recursive: true });
    cpSync(SEED, join(workspace, '.codewiki/prompts/module-design-zh.yaml'));
    browser = await launchBrowser();
    server = await startCodeServer({
      workspace,
      trusted: true,
      // Plain chat here; agent mode (the default) has its own suite, extensionAgent.test.ts.
      settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'main-model', 'codewiki.toolModel': 'tool-model', 'codewiki.chat.mode': 'chat' },
    });
    workbench = await Workbench.open(browser, server.workbenchUrl());
    view = await workbench.openCodeWikiView();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await saveFailureArtifacts(this.currentTest, workbench, server);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await browser?.close();
    await llm?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  const composer = () => view.locator('cw-composer textarea');

  it('chats: the answer streams into the sidebar and the question went over the wire', async () => {
    await view.locator('cw-status-bar', { hasText: 'main-model' }).waitFor({ timeout: 30_000 });
    await composer().fill('Hello CodeWiki');
    await composer().press('Enter');
    const answer = view.locator('cw-message [data-kind=assistant]').last();
    await answer.getByText('Hello from', { exact: false }).waitFor({ timeout: 30_000 });
    assert.doesNotMatch((await answer.textContent()) ?? '', /scripted model\./, 'the answer is still streaming');
    await answer.getByText('Hello from the scripted model.').waitFor({ timeout: 30_000 });
    await view.locator('cw-message [data-kind=user]').last().getByText('Hello CodeWiki').waitFor({ timeout: 5_000 });
    const request = llm.requests.find((r) => r.body?.model === 'main-model')!;
    assert.equal(request.body?.stream, true);
    assert.equal(request.body?.messages?.at(-1)?.content, 'Hello CodeWiki');
  });

  it("runs seed 001's prompt through the /agent form: steps appear live, the answer streams", async () => {
    await workbench.runCommand('CodeWiki: New Chat');
    await view.locator('cw-message').first().waitFor({ state: 'detached', timeout: 15_000 });
    await composer().fill('/agent');
    await composer().press('Enter');
    await view.locator('cw-prompt-picker li[data-prompt="module-design-zh"]').click();
    const field = view.locator('cw-prompt-form .field[data-field=module_path] input');
    await field.fill('src/mod');
    assert.equal(
      await view.locator('cw-prompt-form .field[data-field=task_description] input').inputValue(),
      '这个模块的核心功能是处理大模型请求和管理插件状态。',
    );
    await view.locator('cw-prompt-form button.run').click();

    const run = view.locator('[data-kind=prompt-run]').last();
    await view.locator('[data-kind=prompt-request]').last().getByText('src/mod').waitFor({ timeout: 30_000 });
    const steps = view.locator('cw-step-list li.step');
    await steps.first().waitFor({ timeout: 30_000 });
    assert.equal(await steps.count(), 3);
    await run.getByText('核心模块', { exact: false }).waitFor({ timeout: 60_000 });
    await view.locator('[data-kind=prompt-run][data-status=done]').waitFor({ timeout: 60_000 });
    assert.deepEqual(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), ['success', 'success', 'success']);
    assert.match((await run.textContent()) ?? '', /核心模块负责处理请求。/);

    const selection = llm.requests.find((r) => r.body?.model === 'tool-model')!;
    assert.match(selection.promptText, /src\/mod\/helper\.ts/, 'the selector saw every summary');
    const final = llm.requests.filter((r) => r.body?.model === 'main-model').at(-1)!;
    assert.match(final.promptText, /CORE_BODY/);
  });

  it('after a window reload both conversations are in the history and restore fully, steps included', async () => {
    await workbench.reload();
    await workbench.waitForWebview();
    view = workbench.webview();
    await view.locator('[data-kind=prompt-run][data-status=done]').waitFor({ timeout: 60_000 }); // the open conversation is restored
    await workbench.runCommand('CodeWiki: Show History');
    const items = view.locator('cw-history li[data-id]');
    await items.nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await items.count(), 2);
    const titles = await view.locator('cw-history li[data-id] .title').allTextContents();
    assert.deepEqual(titles, ['生成核心模块设计文档 (智能筛选版)', 'Hello CodeWiki']);

    await view.locator('cw-history li[data-id] button.open').nth(1).click();
    await view.locator('cw-message [data-kind=assistant]').getByText('Hello from the scripted model.').waitFor({ timeout: 30_000 });

    await workbench.runCommand('CodeWiki: Show History');
    await view.locator('cw-history li[data-id] button.open').first().click();
    await view.locator('[data-kind=prompt-request]').getByText('src/mod').waitFor({ timeout: 30_000 });
    const steps = view.locator('cw-step-list li.step');
    assert.deepEqual(await steps.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-step')}:${e.getAttribute('data-status')}`)), [
      'all_file_summaries:success',
      'selected_files_list:success',
      'selected_files_content:success',
    ]);
    assert.match((await view.locator('[data-kind=prompt-run]').textContent()) ?? '', /核心模块负责处理请求。/);
  });
});
