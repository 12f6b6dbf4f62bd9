/**
 * Takes the documentation screenshots of CodeWiki in a real VS Code (code-server) answering on the local model:
 * an agent-mode answer (with the tool calls it made) and `/agent module-design-doc`, through the README's main
 * command itself (scripts/vscode/start.sh, no endpoint configured, so it starts the local model).
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
 *
 *   npm run build && node --import tsx scripts/vscode/screenshots.ts --index FOLDER "QUESTION" [OUT_DIR]
 *
 * opens FOLDER (a real repository) with the README's main command, trusts it, waits for the code index in the status
 * bar, asks QUESTION in agent mode on the local model, prints how long the definition card took to appear and the
 * answer, and saves `code-index.png`.
 *
 *   npm run build && node --import tsx scripts/vscode/screenshots.ts --wiki FOLDER [OUT_DIR]
 *
 * opens FOLDER with the README's main command, trusts it, runs **CodeWiki: Generate Wiki**, prints when the
 * structure showed and when the local model finished the prose, and saves `wiki-generating.png`, `wiki-index.png`
 * and `wiki-module.png` (the first module page the front page links to).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../test/realModel/localModelServer';

async function main(): Promise<void> {
  // The test helpers declare their mocha suite guard on load; outside mocha it only needs to exist.
  Object.assign(globalThis, { describe: Object.assign(() => undefined, { skip: () => undefined }) });
  const args = process.argv.slice(2);
  if (args[0] === '--sidebar') return sidebarShots(resolve(args[1] ?? join(REPO_ROOT, 'docs/screenshots')));
  if (args[0] === '--wiki') return wikiShots(resolve(args[1]!), resolve(args[2] ?? join(REPO_ROOT, 'docs/screenshots')));
  if (args[0] === '--index') return indexShot(resolve(args[1]!), args[2]!, resolve(args[3] ?? join(REPO_ROOT, 'docs/screenshots')));
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  const out = resolve(args[0] ?? join(REPO_ROOT, 'docs/screenshots'));
  mkdirSync(out, { recursive: true });
  // Exactly the README's main command, with no endpoint configured: start.sh starts the local model itself.
  const started = await startMainCommand();
  const browser = await launchBrowser();
  try {
    const workbench = await Workbench.open(browser, started.url);
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-status-bar', { hasText: 'local ·' }).waitFor({ timeout: 60_000 });
    const composer = view.locator('cw-composer textarea');
    await composer.fill('Where is the word frequency computed?');
    await composer.press('Enter');
    const turn = view.locator('[data-kind=agent-turn][data-status=done], [data-kind=agent-turn][data-status=error]').last();
    await turn.waitFor({ timeout: 15 * 60_000 });
    // The reasoning block open, so the tool calls the answer came from are in the picture.
    const head = turn.locator('button.work-head[aria-expanded=false]');
    if (await head.count()) await head.click();
    console.log(await workbench.screenshot(join(out, 'local-model-chat.png')));
    console.log('turn:', (await turn.textContent())?.replace(/\s+/g, ' ').slice(0, 800));
    console.log(
      'saved tool calls:',
      started
        .savedText()
        .match(/"tool":"[a-z_]+"/g)
        ?.join(' ') ?? 'none',
    );

    await workbench.runCommand('CodeWiki: New Chat');
    await composer.fill('/agent');
    await composer.press('Enter');
    await view.locator('cw-prompt-picker li[data-prompt="module-design-doc"]').click();
    await view.locator('cw-prompt-form .field[data-field=module_path] input').fill('src');
    await view.locator('cw-prompt-form button.run').click();
    await view.locator('[data-kind=prompt-run][data-status=done], [data-kind=prompt-run][data-status=error]').waitFor({ timeout: 20 * 60_000 });
    console.log(await workbench.screenshot(join(out, 'local-model-agent-module-design-doc.png')));
  } finally {
    await browser.close();
    await started.stop();
  }
}

/** A real repository through the main command: the index in the status bar, the card's delay, the local model's answer. */
async function indexShot(folder: string, question: string, out: string): Promise<void> {
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  mkdirSync(out, { recursive: true });
  const started = await startMainCommand(folder);
  const browser = await launchBrowser();
  try {
    const workbench = await Workbench.open(browser, started.url);
    await workbench.trustWorkspace();
    const view = await workbench.openCodeWikiView();
    await view.locator('cw-status-bar', { hasText: 'local ·' }).waitFor({ timeout: 60_000 });
    const indexed = workbench.page.locator('.statusbar-item', { hasText: /[\d,]+ files$/ });
    await indexed.waitFor({ timeout: 5 * 60_000 });
    console.log('status bar:', (await indexed.textContent())?.trim());
    const composer = view.locator('cw-composer textarea');
    await composer.fill(question);
    const asked = performance.now();
    await composer.press('Enter');
    await view.locator('[data-kind=agent-turn] .definition-card').last().waitFor({ timeout: 60_000 });
    console.log(`definition card after ${Math.round(performance.now() - asked)} ms`);
    const turn = view.locator('[data-kind=agent-turn][data-status=done], [data-kind=agent-turn][data-status=error]').last();
    await turn.waitFor({ timeout: 15 * 60_000 });
    console.log(`answer after ${Math.round((performance.now() - asked) / 1000)} s:`, (await turn.locator('.answer').textContent())?.trim());
    console.log(await workbench.screenshot(join(out, 'code-index.png')));
  } finally {
    await browser.close();
    await started.stop();
  }
}

/** A real repository's wiki through the main command: the structure at once, the prose when the local model is done. */
async function wikiShots(folder: string, out: string): Promise<void> {
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  mkdirSync(out, { recursive: true });
  const started = await startMainCommand(folder);
  const browser = await launchBrowser();
  try {
    const workbench = await Workbench.open(browser, started.url);
    await workbench.trustWorkspace();
    const asked = performance.now();
    await workbench.runCommand('CodeWiki: Generate Wiki');
    await workbench.page.locator('.tabs-container .tab', { hasText: 'CodeWiki: Wiki' }).waitFor({ timeout: 5 * 60_000 });
    const wiki = workbench.webview();
    await wiki.locator('cw-wiki article.page-body[data-path="index.md"]').waitFor({ timeout: 5 * 60_000 });
    console.log(`structure shown after ${Math.round((performance.now() - asked) / 1000)} s`);
    const progress = wiki.locator('cw-wiki .progress-label');
    if (await progress.count()) {
      console.log('progress:', (await progress.textContent())?.trim());
      console.log(await workbench.screenshot(join(out, 'wiki-generating.png')));
    }
    await wiki.locator('cw-wiki button.generate').waitFor({ timeout: 60 * 60_000 });
    console.log(`prose finished after ${Math.round((performance.now() - asked) / 1000)} s`);
    await wiki.locator('cw-wiki nav.pages .page-entry[data-path="index.md"]').click();
    await wiki.locator('cw-wiki article.page-body[data-path="index.md"] svg').first().waitFor({ timeout: 60_000 });
    console.log(await workbench.screenshot(join(out, 'wiki-index.png')));
    const module = wiki.locator('cw-wiki article.page-body a[data-href^="modules/"]').first();
    const page = await module.getAttribute('data-href');
    await module.click();
    await wiki.locator(`cw-wiki article.page-body[data-path="${page}"]`).waitFor({ timeout: 15_000 });
    console.log(await workbench.screenshot(join(out, 'wiki-module.png')));
  } finally {
    await browser.close();
    await started.stop();
  }
}

/** Runs scripts/vscode/start.sh on a free port with a fresh profile and no endpoint in the environment; resolves with its URL. */
async function startMainCommand(folder?: string): Promise<{ url: string; stop(): Promise<void>; savedText(): string }> {
  const profile = mkdtempSync(join(tmpdir(), 'codewiki-main-profile-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), CODEWIKI_VSCODE_PROFILE: profile };
  for (const name of ['CODEWIKI_BASE_URL', 'CODEWIKI_MODEL', 'CODEWIKI_TOOL_MODEL', 'CODEWIKI_API_KEY']) delete env[name];
  const child = spawn('bash', [join(REPO_ROOT, 'scripts/vscode/start.sh'), ...(folder ? [folder] : [])], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      seen += chunk.toString();
      const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/m.exec(seen);
      if (match) resolveUrl(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`start.sh exited with ${code} before printing its URL`)));
  });
  return {
    url,
    // What the history store wrote, to show the turn and its tool calls were saved.
    savedText: () =>
      readdirSync(profile, { recursive: true, encoding: 'utf8' })
        .filter((file) => /conversations[\\/].+\.jsonl$/.test(file))
        .map((file) => readFileSync(join(profile, file), 'utf8'))
        .join('\n'),
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** A prompt with a typo in a tool name: the picker lists it with its error and opens the file there on click. */
const BROKEN_PROMPT =
  'title: Release notes\ntool_chain:\n  - tool: raed_file\n    input:\n      path: CHANGELOG.md\n    output_variable: log\nllm_prompt_template:\n  human: "{log}"\n';

/** The 300 px sidebar: picker, form, a finished run and a failed one, each as `sidebar-<name>.png`. */
async function sidebarShots(out: string): Promise<void> {
  const { startCodeServer } = await import('../../test/vscode/codeServer');
  const { launchBrowser, Workbench } = await import('../../test/vscode/workbench');
  const { OpenAiTestServer } = await import('../../test/support/openaiServer');
  mkdirSync(out, { recursive: true });
  const workspace = mkdtempSync(join(tmpdir(), 'codewiki-shots-'));
  cpSync(join(REPO_ROOT, 'example-workspace'), workspace, { recursive: true });
  writeFileSync(join(workspace, '.codewiki/prompts/release-notes.yaml'), BROKEN_PROMPT);
  const answer =
    '`tokenize.ts` splits text into lowercase words, dropping punctuation.\n\n- **Input**: a string\n- **Output**: `string[]`\n\nIt is used by `frequency.ts` and `readingTime.ts`.';
  // For the error shot the server answers as one does to a wrong key (401, never retried).
  let rejectKey = false;
  const llm = new OpenAiTestServer(
    () =>
      rejectKey
        ? { status: 401, body: { error: { message: 'Incorrect API key provided.' } } }
        : { chunks: answer.match(/.{1,12}/gs) ?? [answer], chunkDelayMs: 20 },
    ['scripted-model'],
  );
  await llm.start();
  const server = await startCodeServer({
    workspace,
    trusted: true,
    settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'scripted-model', 'codewiki.chat.mode': 'agent' },
  });
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
    await view.locator('[data-kind=prompt-run][data-status=done]').waitFor({ timeout: 120_000 });
    await shot('finished-run');

    await workbench.runCommand('CodeWiki: New Chat');
    rejectKey = true;
    await composer.fill('/agent explain-file file=src/readingTime.ts');
    await composer.press('Enter');
    await view.locator('[data-kind=prompt-run][data-status=error] .error-box').waitFor({ timeout: 120_000 });
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
