import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { OpenAiTestServer } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, writeCodeWorkspace, type CodeServer } from './codeServer';
import { bundleOneSuite, runExtensionHostSuite } from './extensionHostSuite';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

/** Polls `probe` until it gives something other than undefined or false; rejects after `timeoutMs` (the machine is shared: generous). */
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const prompt = (title: string, step = 'read_file') =>
  `title: ${title}\ninput_variables:\n  - name: where\n    type: path\ntool_chain:\n  - tool: ${step}\n    input: { path: "{where}" }\n    output_variable: content\nllm_prompt_template:\n  human: "Explain {content}"\n`;

/**
 * Issue 22 §2: a multi-root workspace (a `.code-workspace` file with the folders `app` and `lib`) in a real VS Code.
 * The UI tests drive the workbench (the index, Browse…, Save to file…, New Action Prompt); the extension-host suite
 * (exthost/multiRoot/) checks prompts, agents, `codewiki.promptFolders` authoring, attachments and the engine.
 * Both folders hold a `src/parser.ts`, so a path resolved in the first folder by mistake reads the wrong one.
 */
vscodeSuite('a multi-root workspace in real VS Code', function () {
  this.timeout(240_000);
  let browser: Browser;
  let base: string;
  let app: string;
  let lib: string;
  let workspaceFile: string;
  let llm: OpenAiTestServer;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let suiteDir: string;

  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    base = realpathSync(mkdtempSync(join(tmpdir(), 'codewiki-multiroot-')));
    app = join(base, 'app');
    lib = join(base, 'lib');
    write(join(app, 'src/parser.ts'), 'export const where = "APP_BODY";\n');
    write(join(app, 'src/main.ts'), 'export const main = 1;\n');
    write(join(app, '.codewiki/prompts/shared.yaml'), prompt('Shared from app'));
    write(join(app, 'team-prompts/app-team.yaml'), prompt('App team'));
    write(join(lib, 'src/parser.ts'), 'export function parseLibraryManifest(text: string) {\n  return text.trim() + "LIB_ONLY_BODY";\n}\n');
    write(join(lib, 'src/manifest.ts'), 'export const manifest = {};\nexport const version = 2;\n');
    write(join(lib, '.codewiki/prompts/lib-read.yaml'), prompt('Read in lib'));
    write(join(lib, '.codewiki/prompts/shared.yaml'), prompt('Shared from lib'));
    write(join(lib, '.codewiki/agents/broken.yaml'), 'name: broken\ndescription: Broken\nsystem: "x"\ntools: [read_file]\nmax_iterations: many\n');
    write(join(lib, 'team-prompts/team-check.yaml'), prompt('Team check'));
    write(join(base, 'extra/notes.md'), '# notes\n');
    workspaceFile = writeCodeWorkspace(
      join(base, 'multi.code-workspace'),
      [
        { path: app, name: 'app' },
        { path: lib, name: 'lib' },
      ],
      { 'codewiki.promptFolders': ['team-prompts'] },
    );
    llm = new OpenAiTestServer((request) => {
      if (/LIB_ONLY_BODY|APP_BODY/.test(request.promptText)) return { text: 'The parser trims the manifest.' };
      return { text: 'It is in lib/src/parser.ts:1.' };
    });
    await llm.start();
    browser = await launchBrowser();
    suiteDir = await bundleOneSuite('multiRoot/multiRoot.exthost.ts');
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const dir = await saveFailureArtifacts(this.currentTest, workbench, server);
    // What the model was asked, in order: a chat or agent request, with or without the index's matches and repo map.
    if (dir)
      writeFileSync(
        join(dir, 'llm-requests.json'),
        JSON.stringify(
          llm.requests.map((r) => ({ path: r.path, prompt: r.promptText })),
          null,
          2,
        ),
      );
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await browser?.close();
    await llm?.close();
    if (suiteDir) rmSync(suiteDir, { recursive: true, force: true });
    if (base) rmSync(base, { recursive: true, force: true });
  });

  describe('in the workbench', () => {
    let view: FrameLocator;
    const page = () => workbench!.page;
    const composer = () => view.locator('cw-composer textarea');
    const quickInput = () => page().locator('.quick-input-widget input');

    before(async () => {
      server = await startCodeServer({ workspace: workspaceFile, trusted: true, settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'main-model' } });
      workbench = await Workbench.open(browser, server.workbenchUrl());
      view = await workbench.openCodeWikiView();
    });

    after(async () => {
      await workbench?.close();
      await server?.stop();
      workbench = undefined;
      server = undefined;
    });

    /**
     * What the simple file dialog (VS Code in a browser has no native one) starts in: the path in its input, once it
     * has settled (it shows the parent folder first, then fills in the name).
     */
    async function dialogPath(): Promise<string> {
      await quickInput().waitFor({ timeout: 15_000 });
      let value = '';
      let stableSince = Date.now();
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await page().waitForTimeout(100)) {
        const now = await quickInput().inputValue();
        if (now !== value) [value, stableSince] = [now, Date.now()];
        else if (value && Date.now() - stableSince > 1_000) break;
      }
      return value;
    }

    /** Its OK button: Enter right after typing can reach the dialog before it has read the typed path. */
    async function acceptDialog(): Promise<void> {
      await page().locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ }).click();
      await page().locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
    }

    it("the code index covers the second folder: a where-is question finds its definition as lib/…, and the card opens that folder's file", async () => {
      // Indexed (the status bar counts the files of both folders) before the question, as a user would see it.
      await page()
        .locator('.statusbar-item', { hasText: /^\s*\d+ files\s*$/ })
        .waitFor({ timeout: 60_000 });
      await composer().fill('Where is parseLibraryManifest defined?');
      await composer().press('Enter');
      const card = view.locator('[data-kind=agent-turn] .definition-card').last();
      await card.waitFor({ timeout: 60_000 });
      assert.equal((await card.locator('.definition-link').textContent())?.replace(/\s+/g, ' ').trim(), 'parseLibraryManifest function — lib/src/parser.ts:1');
      await view.locator('[data-kind=agent-turn][data-status=done]').last().waitFor({ timeout: 60_000 });
      // The card opens lib's parser.ts, not the first folder's file of the same relative path.
      await card.locator('.definition-link').click();
      await page().locator('.tabs-container .tab.active', { hasText: 'parser.ts' }).waitFor({ timeout: 15_000 });
      await page().locator('.editor-group-container.active .view-lines', { hasText: 'LIB_ONLY_BODY' }).waitFor({ timeout: 15_000 });
      await workbench!.runCommand('View: Close All Editors');
    });

    it("Browse… starts in the active editor's folder and names the pick lib/…; the prompt reads that folder's file; Save to file… starts there too", async () => {
      // The active editor is a file of the second folder.
      await page().keyboard.press('Control+P');
      await quickInput().fill('manifest.ts');
      await page().locator('.quick-input-list .monaco-list-row', { hasText: 'manifest.ts' }).first().waitFor({ timeout: 15_000 });
      await page().keyboard.press('Enter');
      await page().locator('.tabs-container .tab.active', { hasText: 'manifest.ts' }).waitFor({ timeout: 15_000 });

      await workbench!.runCommand('CodeWiki: New Chat');
      await view.locator('cw-message').first().waitFor({ state: 'detached', timeout: 15_000 }); // the new chat has arrived
      await composer().fill('/agent');
      await composer().press('Enter');
      await view.locator('cw-prompt-picker li[data-prompt="lib-read"]').click({ timeout: 30_000 });
      await view.locator('cw-prompt-form .field[data-field=where] button.browse').click();
      const start = await dialogPath();
      assert.ok(start.startsWith(lib), `the open dialog starts in ${lib}, not ${start}`);
      await quickInput().fill(join(lib, 'src/parser.ts'));
      await page().locator('.quick-input-list .monaco-list-row', { hasText: 'parser.ts' }).waitFor({ timeout: 15_000 }); // the dialog caught up
      await acceptDialog();
      const field = view.locator('cw-prompt-form .field[data-field=where] input');
      await until(async () => (await field.inputValue()) !== '').catch(() => undefined);
      assert.equal(await field.inputValue(), 'lib/src/parser.ts');

      await view.locator('cw-prompt-form button.run').click();
      await view.locator('[data-kind=prompt-run][data-status=done]').last().waitFor({ timeout: 60_000 });
      const final = llm.requests.filter((r) => /Explain/.test(r.promptText)).at(-1);
      assert.match(final?.promptText ?? '', /LIB_ONLY_BODY/, 'the step read lib/src/parser.ts');
      assert.doesNotMatch(final?.promptText ?? '', /APP_BODY/);

      await view.locator('[data-kind=prompt-run] button[data-action=save]').last().click();
      const target = await dialogPath();
      assert.equal(target, join(lib, 'codewiki-answer.md'), "the save dialog starts in the active editor's folder");
      await acceptDialog();
      const saved = join(lib, 'codewiki-answer.md');
      await until(() => existsSync(saved));
      assert.match(readFileSync(saved, 'utf8'), /The parser trims the manifest\./);
      await page().locator('.tabs-container .tab.active', { hasText: 'codewiki-answer.md' }).waitFor({ timeout: 15_000 }); // and opened
    });

    it("New Action Prompt asks which folder and creates the prompt in that folder's .codewiki/prompts", async () => {
      await workbench!.runCommand('CodeWiki: New Action Prompt', 45_000, true);
      const rows = page().locator('.quick-input-list .monaco-list-row');
      const libRow = rows.filter({ has: page().locator('.label-name', { hasText: /^lib$/ }) });
      await libRow.waitFor({ timeout: 15_000 }); // the folder pick has replaced the palette
      const labels = async () => (await rows.locator('.label-name').allTextContents()).map((t) => t.trim()).join(',');
      assert.equal(await until(async () => ((await labels()) === 'app,lib' ? 'app,lib' : undefined)).catch(labels), 'app,lib');
      await libRow.click();
      await until(async () => (await quickInput().inputValue()) === 'my-prompt'); // the name box follows the pick
      await page().keyboard.press('Enter');
      const created = join(lib, '.codewiki/prompts/my-prompt.yaml');
      assert.ok(await until(() => existsSync(created)).catch(() => false), 'created in lib');
      assert.equal(existsSync(join(app, '.codewiki/prompts/my-prompt.yaml')), false);
      await page().locator('.tabs-container .tab.active', { hasText: 'my-prompt.yaml' }).waitFor({ timeout: 15_000 });
    });
  });

  // After the workbench tests: this suite adds a folder to the workspace file (and removes it again).
  describe('in the extension host', () => {
    it("every folder's prompts and agents, promptFolders authoring, #selection, the engine rebuilt on a new folder", async () => {
      const run = await runExtensionHostSuite(browser, { workspace: workspaceFile, testsPath: join(suiteDir, 'index.js'), timeoutMs: 200_000 });
      const report = run.output.join('\n');
      assert.equal(run.exitCode, 0, `the extension-host suite failed:\n${report}`);
      assert.match(report, /6 passing/);
    });
  });
});
