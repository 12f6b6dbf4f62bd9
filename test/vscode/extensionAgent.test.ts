import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { OpenAiTestServer } from '../support/openaiServer';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

/**
 * Agent mode in a real VS Code (code-server), against a scripted OpenAI-protocol server: the agent reads a
 * workspace file before it answers, with the tool call visible, and a write_file call changes the file on
 * disk only after the user clicks Allow on the approval card.
 */
vscodeSuite('extension in real VS Code: agent mode', function () {
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
    llm = new OpenAiTestServer();
    await llm.start();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-agent-'));
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'src/frequency.ts'), 'export function countWords() {\n  return "FREQ_BODY";\n}\n');
    browser = await launchBrowser();
    server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.baseUrl': llm.url, 'codewiki.model': 'main-model' } });
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

  it('reads a file with a visible tool call before it answers', async () => {
    llm.enqueue(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'src/frequency.ts' } }] },
      { chunks: ['It is computed in ', 'src/frequency.ts:1.'] },
    );
    await view.locator('cw-composer button.mode[data-mode=agent][aria-pressed=true]').waitFor({ timeout: 30_000 });
    await composer().fill('Where is the word frequency computed?');
    await composer().press('Enter');
    const turn = view.locator('[data-kind=agent-turn][data-status=done]').last();
    await turn.waitFor({ timeout: 60_000 });
    assert.match((await turn.textContent()) ?? '', /It is computed in src\/frequency\.ts:1\./);
    // Two: the code index's search CodeWiki made before the first turn, and the model's read_file.
    assert.match((await turn.textContent()) ?? '', /2 tools/i, 'the tool calls are summarised in the turn');
    const followUp = llm.requests[1]!.body!.messages!;
    assert.match(String(followUp.find((m) => m.role === 'tool' && m.tool_call_id === 'call_read')?.content), /FREQ_BODY/, 'the file went back to the model');
    assert.ok(
      llm.requests[0]!.body!.tools!.some((t) => t.function.name === 'read_file'),
      'the tools went over the wire',
    );
  });

  it('write_file changes the file on disk only after Allow', async () => {
    const target = join(workspace, 'src/notes.md');
    llm.enqueue(
      { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'src/notes.md', content: '# Notes\n' } }] },
      { text: 'Created src/notes.md.' },
    );
    await composer().fill('Create src/notes.md with a heading');
    await composer().press('Enter');
    const card = view.locator('cw-approval-card').last();
    await card.locator('button.allow-once').waitFor({ timeout: 60_000 });
    await card.getByText('+# Notes').waitFor({ timeout: 5_000 }); // the card shows the change (text in its shadow root)
    assert.throws(() => readFileSync(target), 'nothing is written before the user decides');
    await card.locator('button.allow-once').click();
    await view.locator('[data-kind=agent-turn][data-status=done]').last().getByText('Created src/notes.md.').waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(target, 'utf8'), '# Notes\n');
  });
});
