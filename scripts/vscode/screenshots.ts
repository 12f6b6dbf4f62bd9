/**
 * Takes the documentation screenshots of CodeWiki in a real VS Code (code-server) answering on the local model:
 * a chat answer and `/agent module-design-doc`, as a newcomer sees them after the README's main command.
 *
 *   npm run build && node --import tsx scripts/vscode/screenshots.ts [OUT_DIR]    (default docs/screenshots)
 *
 * Uses the same helpers as the tests (code-server, Chromium, scripts/local-model/serve.sh); takes a few minutes
 * on 2 cores, most of it the model reading the module's files.
 *
 *   npm run build && node --import tsx scripts/vscode/screenshots.ts --sidebar [OUT_DIR]
 *
 * takes the sidebar alone at its default width (about 300 px): the /agent picker, the form, a finished run and a
 * failed one (`sidebar-*.png`). These answer from the tests' scripted OpenAI-protocol server, so they take about a
 * minute and show the layout, not a model's words.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pinnedModels, REPO_ROOT, startLocalModel } from '../../test/realModel/localModelServer';

async function main(): Promise<void> {
  // The test helpers declare their mocha suite guard on load; outside mocha it only needs to exist.
  Object.assign(globalThis, { describe: Object.assign(() => undefined, { skip: () => undefined }) });
  const args = process.argv.slice(2);
  if (args[0] === '--sidebar') return sidebarShots(resolve(args[1] ?? join(REPO_ROOT, 'docs/screenshots')));
  const { startCodeServer } = await import('../../test/vscode/codeServer');
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  const out = resolve(args[0] ?? join(REPO_ROOT, 'docs/screenshots'));
  mkdirSync(out, { recursive: true });
  const workspace = mkdtempSync(join(tmpdir(), 'codewiki-shots-'));
  cpSync(join(REPO_ROOT, 'example-workspace'), workspace, { recursive: true });
  const model = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--n-predict', '400'] });
  const server = await startCodeServer({ workspace, env: { CODEWIKI_BASE_URL: model.baseUrl, CODEWIKI_MODEL: model.model, CODEWIKI_LOCAL_SERVER: 'llama.cpp' } });
  const browser = await launchBrowser();
  try {
    const workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-status-bar', { hasText: 'local ·' }).waitFor({ timeout: 60_000 });
    const composer = view.locator('cw-composer textarea');
    await composer.fill('Where is the word frequency computed?');
    await composer.press('Enter');
    await view.locator('[data-status=done], [data-status=error]').last().waitFor({ timeout: 15 * 60_000 });
    console.log(await workbench.screenshot(join(out, 'local-model-chat.png')));

    await workbench.runCommand('CodeWiki: New Chat');
    await composer.fill('/agent');
    await composer.press('Enter');
    await view.locator('cw-prompt-picker li[data-prompt="module-design-doc"]').click();
    await view.locator('cw-prompt-form .field[data-field=module_path] input').fill('src');
    await view.locator('cw-prompt-form button.run').click();
    await view.locator('[data-kind=agent-run][data-status=done], [data-kind=agent-run][data-status=error]').waitFor({ timeout: 20 * 60_000 });
    console.log(await workbench.screenshot(join(out, 'local-model-agent-module-design-doc.png')));
  } finally {
    await browser.close();
    await server.stop();
    await model.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** A prompt with a typo in a tool name: the picker lists it with its error and opens the file there on click. */
const BROKEN_PROMPT = 'title: Release notes\ntool_chain:\n  - tool: raed_file\n    input:\n      path: CHANGELOG.md\n    output_variable: log\nllm_prompt_template:\n  human: "{log}"\n';

/** The 300 px sidebar: picker, form, a finished run and a failed one, each as `sidebar-<name>.png`. */
async function sidebarShots(out: string): Promise<void> {
  const { startCodeServer } = await import('../../test/vscode/codeServer');
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  const { OpenAiTestServer } = await import('../../test/support/openaiServer');
  mkdirSync(out, { recursive: true });
  const workspace = mkdtempSync(join(tmpdir(), 'codewiki-shots-'));
  cpSync(join(REPO_ROOT, 'example-workspace'), workspace, { recursive: true });
  writeFileSync(join(workspace, '.codewiki/prompts/release-notes.yaml'), BROKEN_PROMPT);
  const answer = '`tokenize.ts` splits text into lowercase words, dropping punctuation.\n\n- **Input**: a string\n- **Output**: `string[]`\n\nIt is used by `frequency.ts` and `readingTime.ts`.';
  // For the error shot the server answers as one does to a wrong key (401, never retried).
  let rejectKey = false;
  const llm = new OpenAiTestServer(
    () => (rejectKey ? { status: 401, body: { error: { message: 'Incorrect API key provided.' } } } : { chunks: answer.match(/.{1,12}/gs) ?? [answer], chunkDelayMs: 20 }),
    ['scripted-model'],
  );
  await llm.start();
  const server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'scripted-model', 'codewiki.chat.mode': 'agent' } });
  const browser = await launchBrowser();
  try {
    const workbench = await Workbench.open(browser, server.workbenchUrl());
    const view = await workbench.openCodeWikiView();
    const sidebar = workbench.page.locator('.part.sidebar');
    const shot = async (name: string) => {
      await workbench.page.mouse.move(900, 450); // no hover tooltip over the sidebar
      await workbench.page.waitForTimeout(300); // let the last frame paint
      await sidebar.screenshot({ path: join(out, `sidebar-${name}.png`) });
      console.log(join(out, `sidebar-${name}.png`), `${Math.round((await sidebar.boundingBox())?.width ?? 0)} px wide`);
    };
    await view.locator('cw-status-bar', { hasText: 'scripted-model' }).waitFor({ timeout: 60_000 });
    const composer = view.locator('cw-composer textarea');
    await composer.fill('/agent');
    await composer.press('Enter');
    await view.locator('cw-prompt-picker li[data-prompt="release-notes"] .prompt-error').waitFor({ timeout: 30_000 });
    await shot('picker');

    await view.locator('cw-prompt-picker li[data-prompt="explain-file"]').click();
    await view.locator('cw-prompt-form').waitFor();
    await view.locator('cw-prompt-form .field[data-field=file] input').fill('src/tokenize.ts');
    await workbench.page.waitForTimeout(500);
    await view.locator('cw-prompt-form .description').click(); // leaving the field closes its path suggestions
    await shot('form');

    await view.locator('cw-prompt-form button.run').click();
    await view.locator('[data-kind=agent-run][data-status=done]').waitFor({ timeout: 120_000 });
    await shot('finished-run');

    await workbench.runCommand('CodeWiki: New Chat');
    rejectKey = true;
    await composer.fill('/agent explain-file file=src/readingTime.ts');
    await composer.press('Enter');
    await view.locator('[data-kind=agent-run][data-status=error] .error-box').waitFor({ timeout: 120_000 });
    await shot('error');
  } finally {
    await browser.close();
    await server.stop();
    await llm.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
