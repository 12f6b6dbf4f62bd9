import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { OpenAiTestServer, type RecordedRequest, type Turn } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

const SHAPES = ['circle', 'square', 'triangle', 'hexagon'];
const UTIL = ['numbers', 'strings', 'dates', 'ids'];

/**
 * Two packages of four TypeScript files each (a package.json makes a folder a module of its own), so the
 * wiki has an overview and two module pages. Each file's function is on line 4.
 */
function writeFixture(root: string): void {
  mkdirSync(join(root, 'shapes'));
  mkdirSync(join(root, 'util'));
  writeFileSync(join(root, 'shapes/package.json'), '{ "name": "shapes" }\n');
  writeFileSync(join(root, 'util/package.json'), '{ "name": "util" }\n');
  for (const name of SHAPES)
    writeFileSync(
      join(root, `shapes/${name}.ts`),
      `import { scaled } from '../util/numbers';\n\n/** The area of a ${name}. */\nexport function ${name}Area(size: number): number {\n  return scaled(size, 2);\n}\n`,
    );
  for (const name of UTIL)
    writeFileSync(
      join(root, `util/${name}.ts`),
      name === 'numbers'
        ? '\n\n/** Multiplies a value by a factor. */\nexport function scaled(value: number, factor: number): number {\n  return value * factor;\n}\n'
        : `import { scaled } from './numbers';\n\n/** Formats ${name}. */\nexport function format_${name}(value: number): string {\n  return String(scaled(value, 1));\n}\n`,
    );
}

/** The prose the scripted model writes for a page: one sentence naming a real definition, so the trust check keeps it. */
function proseFor(page: string): string {
  return `Scripted overview of ${SUBJECTS[page]}: the \`${page === 'modules/util.md' ? 'scaled' : 'circleArea'}\` function is where to start.`;
}

/** What each page's scripted prose is about (a page's own path would be a claim about a file the workspace lacks). */
const SUBJECTS: Record<string, string> = { 'index.md': 'the repository', 'modules/shapes.md': 'the shapes package', 'modules/util.md': 'the util package' };

/**
 * CodeWiki: Generate Wiki in a real VS Code (code-server): the structure at once, then the model's prose
 * page by page with progress in the panel and a notification, the pages on disk, and links in the panel
 * that open another page or the code at its line.
 */
vscodeSuite('extension in real VS Code: the wiki', function () {
  this.timeout(180_000);
  let browser: Browser;
  let llm: OpenAiTestServer;
  let workspace: string;
  let server: CodeServer;
  let workbench: Workbench;
  let wiki: FrameLocator;
  /** Holds the model's first answer until the test has seen the progress, so the progress cannot be missed. */
  let releaseFirstAnswer: () => void;
  const firstAnswerReleased = new Promise<void>((resolve) => (releaseFirstAnswer = resolve));
  const pagesAsked: string[] = [];
  let stallAnswers = false;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    llm = new OpenAiTestServer(async (request: RecordedRequest): Promise<Turn> => {
      const page = /Write the overview for the wiki page (\S+) in at most/.exec(request.promptText)?.[1];
      if (!page) return { status: 400, body: { error: { message: 'not a wiki page prompt' } } };
      pagesAsked.push(page);
      if (pagesAsked.length === 1) await firstAnswerReleased;
      // Never answered: the last test stops the run while the model is still writing.
      if (stallAnswers) return { stall: 'before-headers' };
      return { text: proseFor(page) };
    });
    await llm.start();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-wiki-'));
    writeFixture(workspace);
    browser = await launchBrowser();
    server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'wiki-model' } });
    workbench = await Workbench.open(browser, server.workbenchUrl());
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await saveFailureArtifacts(this.currentTest, workbench, server);
  });

  after(async () => {
    releaseFirstAnswer?.();
    await workbench?.close();
    await server?.stop();
    await browser?.close();
    await llm?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  const article = () => wiki.locator('cw-wiki article.page-body');

  it('Generate Wiki shows the structure and progress, then every page with the prose, on disk too', async () => {
    await workbench.runCommand('CodeWiki: Generate Wiki');
    await workbench.page.locator('.tabs-container .tab', { hasText: 'CodeWiki: Wiki' }).waitFor({ timeout: 60_000 });
    wiki = workbench.webview();

    // The structure is there before the model has answered once, with the progress in the panel and a notification.
    const progress = wiki.locator('cw-wiki .progress-label');
    await progress.filter({ hasText: /^Writing (shapes|util) \(0\/3\)$/ }).waitFor({ timeout: 60_000 });
    await workbench.notifications().filter({ hasText: 'CodeWiki: generating the wiki' }).waitFor({ timeout: 15_000 });
    assert.equal(await article().getAttribute('data-path'), 'index.md');
    assert.match((await article().textContent()) ?? '', /No overview yet/, 'the index shows its structure while the prose is being written');
    const listed = await wiki.locator('cw-wiki nav.pages .page-entry').evaluateAll((entries) => entries.map((e) => e.getAttribute('data-path')));
    assert.equal(listed[0], 'index.md');
    assert.deepEqual(listed.slice(1).sort(), ['modules/shapes.md', 'modules/util.md']);
    releaseFirstAnswer();

    // The run ends: no progress, and the index shows the model's overview and the module list.
    await wiki.locator('cw-wiki button.generate').waitFor({ timeout: 60_000 });
    await article().filter({ hasText: 'Scripted overview of the repository' }).waitFor({ timeout: 30_000 });
    const modules = await article()
      .locator('a[data-href^="modules/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('data-href')));
    assert.deepEqual([...modules].sort(), ['modules/shapes.md', 'modules/util.md']);
    assert.deepEqual([...pagesAsked].sort(), ['index.md', 'modules/shapes.md', 'modules/util.md'], 'one prose request per page');

    const wikiDir = join(workspace, '.codewiki/wiki');
    for (const page of ['index.md', 'modules/shapes.md', 'modules/util.md']) {
      assert.ok(existsSync(join(wikiDir, page)), `${page} was written`);
      // The name in backticks is linked to its definition by the trust check, so compare the sentence's words.
      assert.match(readFileSync(join(wikiDir, page), 'utf8'), new RegExp(`Scripted overview of ${SUBJECTS[page]}: the`), page);
    }
  });

  it('a page link shows that page, and a code link opens the editor at its line', async () => {
    await article().locator('a[data-href="modules/shapes.md"]').first().click();
    await wiki.locator('cw-wiki article.page-body[data-path="modules/shapes.md"]').waitFor({ timeout: 15_000 });
    await article().filter({ hasText: 'Scripted overview of the shapes package' }).waitFor({ timeout: 15_000 });
    assert.equal(await wiki.locator('cw-wiki nav.pages .page-entry[aria-current="page"]').getAttribute('data-path'), 'modules/shapes.md');

    const codeLink = article().locator('a[data-href="../../../shapes/circle.ts#L4"]').first();
    await codeLink.click();
    await workbench.page.locator('.tabs-container .tab.active', { hasText: 'circle.ts' }).waitFor({ timeout: 15_000 });
    await workbench.page.locator('.statusbar-item', { hasText: /Ln 4, Col 1/ }).waitFor({ timeout: 15_000 });
  });

  it('Stop in the panel aborts the run: the request to the model is dropped, the pages written before are kept', async () => {
    const wikiDir = join(workspace, '.codewiki/wiki');
    const utilBefore = readFileSync(join(wikiDir, 'modules/util.md'), 'utf8');
    // A deleted page is one to write again: its structure at once, then its overview.
    rmSync(join(wikiDir, 'modules/shapes.md'));
    stallAnswers = true;
    const asked = pagesAsked.length;
    await wiki.locator('cw-wiki button.generate').click();
    await wiki.locator('cw-wiki .progress-label', { hasText: /^Writing shapes \(0\/2\)$/ }).waitFor({ timeout: 30_000 });
    await until(() => pagesAsked.length > asked, 'the model was asked for the shapes page');
    assert.equal(pagesAsked.at(-1), 'modules/shapes.md');
    await wiki.locator('cw-wiki button.stop').click();

    await wiki.locator('cw-wiki .notice', { hasText: /^Stopped\./ }).waitFor({ timeout: 15_000 });
    await wiki.locator('cw-wiki button.generate').waitFor({ timeout: 15_000 });
    await until(() => llm.requests.at(-1)?.closedAt !== undefined, 'the request to the model was closed');
    assert.match(readFileSync(join(wikiDir, 'modules/shapes.md'), 'utf8'), /No overview yet/, 'the page is back with its structure');
    assert.equal(readFileSync(join(wikiDir, 'modules/util.md'), 'utf8'), utilBefore, 'the other pages are untouched');
  });
});

/** Waits for a condition on the test's side (the scripted server's record), as Playwright waits on the page's. */
async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Security promise #1 (commands refuse in Restricted Mode), then the structure alone when no model is configured. */
vscodeSuite('extension in real VS Code: the wiki without trust or a model', function () {
  this.timeout(180_000);
  let browser: Browser;
  let workspace: string;
  let server: CodeServer;
  let workbench: Workbench;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-wiki-untrusted-'));
    writeFixture(workspace);
    // The repository chooses its wiki folder (a setting a workspace may set, inside itself).
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode/settings.json'), JSON.stringify({ 'codewiki.wiki.folder': 'docs/wiki' }));
    browser = await launchBrowser();
    server = await startCodeServer({ workspace, trusted: false });
    workbench = await Workbench.open(browser, server.workbenchUrl());
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await saveFailureArtifacts(this.currentTest, workbench, server);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await browser?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('in Restricted Mode Open Wiki and Generate Wiki refuse and write nothing', async () => {
    await workbench.restrictedModeIndicator().waitFor({ timeout: 30_000 });
    const refusal = workbench.notifications().filter({ hasText: 'CodeWiki: trust this workspace to build its wiki' });
    await workbench.runCommand('CodeWiki: Open Wiki');
    await refusal.waitFor({ timeout: 30_000 });
    await workbench.runCommand('Notifications: Clear All Notifications');
    await refusal.waitFor({ state: 'detached', timeout: 15_000 });
    await workbench.runCommand('CodeWiki: Generate Wiki');
    await refusal.waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(workspace, '.codewiki')), false);
    assert.equal(await workbench.page.locator('.tabs-container .tab', { hasText: 'CodeWiki: Wiki' }).count(), 0, 'no wiki panel opened');
  });

  it('trusted but with no model: Open Wiki offers to generate, the pages get their structure, and the panel says how to get the overviews', async () => {
    await workbench.trustWorkspace();
    await workbench.runCommand('CodeWiki: Open Wiki');
    const wiki = workbench.webview();
    await wiki.locator('cw-wiki .notice', { hasText: 'No wiki yet' }).waitFor({ timeout: 60_000 });
    const offer = workbench.notifications().filter({ hasText: 'this workspace has no wiki yet' });
    await offer.locator('.monaco-button', { hasText: 'Generate Wiki' }).click({ timeout: 15_000 });
    await wiki.locator('cw-wiki .notice', { hasText: 'The overviews need a model' }).waitFor({ timeout: 60_000 });
    assert.match((await wiki.locator('cw-wiki .notice').textContent()) ?? '', /CodeWiki › Base Url and CodeWiki › Model/);
    const article = wiki.locator('cw-wiki article.page-body[data-path="index.md"]');
    await article.locator('a[data-href="modules/shapes.md"]').waitFor({ timeout: 15_000 });
    assert.match((await article.textContent()) ?? '', /No overview yet/);
    for (const page of ['index.md', 'modules/shapes.md', 'modules/util.md'])
      assert.match(readFileSync(join(workspace, 'docs/wiki', page), 'utf8'), /No overview yet/, `${page} has its structure, in the folder the setting names`);
    assert.equal(existsSync(join(workspace, '.codewiki/wiki')), false);
  });

  it('a wiki folder setting that leads out of the workspace is refused, and nothing is written there', async () => {
    const outside = `${workspace}-outside-wiki`;
    writeFileSync(join(workspace, '.vscode/settings.json'), JSON.stringify({ 'codewiki.wiki.folder': '../' + basename(outside) }));
    const refusal = workbench.notifications().filter({ hasText: 'must be a folder inside the workspace' });
    // VS Code reads the changed settings file a moment later; until then Generate still uses docs/wiki.
    for (let attempt = 1; (await refusal.count()) === 0; attempt++) {
      if (attempt > 10) assert.fail('Generate Wiki never refused the folder outside the workspace');
      await workbench.runCommand('CodeWiki: Generate Wiki');
      await refusal
        .first()
        .waitFor({ timeout: 3_000 })
        .catch(() => undefined);
    }
    assert.equal(existsSync(outside), false);
  });
});
