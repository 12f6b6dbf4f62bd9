import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { OpenAiTestServer } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

const GENERATED_FILES = 2_500;

/**
 * The code index in a real VS Code (code-server): built in a worker while the status bar shows progress,
 * then a where-is question shows the definition card before the model answers, and a definition saved
 * later is found by the next question (file watcher → worker).
 */
vscodeSuite('extension in real VS Code: the code index', function () {
  this.timeout(180_000);
  let browser: Browser;
  let llm: OpenAiTestServer;
  let workspace: string;
  let server: CodeServer;
  let workbench: Workbench;
  let view: FrameLocator;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    // Answers as a llama-server on this machine does (/props, slot save and restore): the agent's prompt is warmed on
    // it when the view opens, and drafts are computed on it. Routed by content, latest question first (the history
    // holds the earlier ones), since the warm-up comes whenever the index is ready.
    llm = new OpenAiTestServer((request) => {
      if (request.body?.messages?.at(-1)?.content === 'Hello.') return { text: 'Hello!' };
      if (/Which file holds countWords/.test(request.promptText)) return { chunks: ['countWords ', 'is in ', 'src/frequency.ts:2.'], chunkDelayMs: 1_000 };
      if (/AddedAfterSave/.test(request.promptText)) return { text: 'In src/late.ts.' };
      return { delayMs: 1_500, chunks: ['countWords is in ', 'src/frequency.ts:2.'] };
    })
      .serveProps({ default_generation_settings: { n_ctx: 16_384 } })
      .serveSlots();
    await llm.start();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-index-'));
    mkdirSync(join(workspace, 'src', 'gen'), { recursive: true });
    writeFileSync(
      join(workspace, 'src/frequency.ts'),
      '/** Counts each word. */\nexport function countWords(words: string[]): Map<string, number> {\n  return new Map();\n}\n',
    );
    // Enough files that indexing takes a moment, so its progress can be seen.
    for (let i = 0; i < GENERATED_FILES; i++)
      writeFileSync(join(workspace, 'src', 'gen', `handler${i}.ts`), `export function handler${i}(input: string): string {\n  return input.repeat(${i});\n}\n`);
    browser = await launchBrowser();
    server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'main-model' } });
    workbench = await Workbench.open(browser, server.workbenchUrl());
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
  const statusItem = () => workbench.page.locator('.statusbar-item', { hasText: /Indexing|files$/ });

  it('the status bar shows indexing progress, then the number of files indexed', async () => {
    // Every text the status bar shows, recorded from before the extension activates (opening its view activates it).
    await workbench.page.evaluate(`(() => {
      const seen = (globalThis.__statusTexts = []);
      new MutationObserver(() => {
        for (const item of document.querySelectorAll('.statusbar-item')) {
          const text = (item.textContent || '').trim();
          if (/^Indexing|files$/.test(text) && seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    view = await workbench.openCodeWikiView();
    const total = (GENERATED_FILES + 1).toLocaleString('en-US');
    await statusItem()
      .filter({ hasText: `${total} files` })
      .waitFor({ timeout: 120_000 });
    const seen = await workbench.page.evaluate(() => (globalThis as unknown as { __statusTexts: string[] }).__statusTexts);
    assert.ok(
      seen.some((text) => /^Indexing [\d,]+\/[\d,]+$/.test(text)),
      `progress was shown: ${seen.join(' | ')}`,
    );
    assert.equal(seen.at(-1), `${total} files`);
  });

  it('a where-is question shows the definition card before the answer, and the card opens the file at the line', async () => {
    await view.locator('cw-composer button.mode[data-mode=agent][aria-pressed=true]').waitFor({ timeout: 30_000 });
    await composer().fill('Where is countWords defined?');
    await composer().press('Enter');
    const card = view.locator('[data-kind=agent-turn] .definition-card').last();
    await card.waitFor({ timeout: 30_000 });
    assert.equal((await card.locator('.definition-link').textContent())?.replace(/\s+/g, ' ').trim(), 'countWords function — src/frequency.ts:2');
    assert.equal(
      await view.locator('[data-kind=agent-turn]').last().getAttribute('data-status'),
      'streaming',
      'the card is there while the model is still to answer',
    );
    await view.locator('[data-kind=agent-turn][data-status=done]').last().waitFor({ timeout: 60_000 });
    const question = llm.requests.findLast((r) => /Where is countWords defined\?/.test(r.promptText) && r.body?.messages?.at(-1)?.content !== 'Hello.');
    assert.match(String(question!.body!.messages!.at(-1)!.content), /src\/frequency\.ts:2 defines countWords \(function\)/, 'the model got the matches too');
    await card.locator('.definition-link').click();
    await workbench.page.locator('.tabs-container .tab.active', { hasText: 'frequency.ts' }).waitFor({ timeout: 15_000 });
    await workbench.page.locator('.statusbar-item', { hasText: /Ln 2, Col/ }).waitFor({ timeout: 15_000 });
  });

  it('a definition saved after indexing is found by the next question', async () => {
    writeFileSync(join(workspace, 'src/late.ts'), 'export class AddedAfterSave {\n  run(): void {}\n}\n');
    const total = (GENERATED_FILES + 2).toLocaleString('en-US');
    await statusItem()
      .filter({ hasText: `${total} files` })
      .waitFor({ timeout: 30_000 });
    await composer().fill('Where is AddedAfterSave defined?');
    await composer().press('Enter');
    const card = view.locator('[data-kind=agent-turn] .definition-card').last();
    await card.filter({ hasText: 'AddedAfterSave' }).waitFor({ timeout: 30_000 });
    assert.match((await card.textContent()) ?? '', /src\/late\.ts:1/);
  });

  it('a question paused over is computed on the local llama-server before Enter, and Enter sends that very request', async () => {
    await view.locator('[data-kind=agent-turn][data-status=done]').nth(1).waitFor({ timeout: 60_000 }); // the last question's answer
    // Chat requests other than the agent prompt's warm-ups (`Hello.`), which come whenever the extension warms it.
    const chats = () => llm.requests.filter((r) => r.path.endsWith('/chat/completions') && r.body?.messages?.at(-1)?.content !== 'Hello.');
    const before = chats().length;
    await composer().fill('Which file holds countWords?');
    await until(() => chats().length > before, 30_000); // no Enter: the composer rested
    const draft = chats()[before]!;
    assert.match(draft.promptText, /Which file holds countWords\?/);
    assert.match(draft.promptText, /src\/frequency\.ts:2 defines countWords/, 'the draft carries the index matches');
    await until(() => draft.closedAt !== undefined, 30_000);
    assert.equal(draft.finishedAt, undefined, 'stopped at its first token');
    assert.equal(await view.locator('[data-kind=agent-turn]').count(), 2, 'nothing shown for the draft');

    await composer().press('Enter');
    await view.locator('[data-kind=agent-turn][data-status=done]').nth(2).waitFor({ timeout: 60_000 });
    const question = chats()[before + 1]!;
    assert.equal(
      JSON.stringify({ messages: question.body!.messages, tools: question.body!.tools }),
      JSON.stringify({ messages: draft.body!.messages, tools: draft.body!.tools }),
      'the question sent exactly what the draft computed',
    );
  });
});

/** Polls until `probe` holds (the machine is shared: generous). */
async function until(probe: () => boolean, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !probe(); await new Promise((r) => setTimeout(r, 100))) if (Date.now() > deadline) throw new Error('timed out');
}
