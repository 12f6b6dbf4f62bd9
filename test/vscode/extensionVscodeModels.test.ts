import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { ensureCodeServer, startCodeServer, vscodeSuite, type CodeServer } from './codeServer';
import { launchBrowser, saveFailureArtifacts, Workbench } from './workbench';

/** A test extension that registers a `vscode.lm` chat model playing scripted turns (see its extension.js). */
const SCRIPTED_PROVIDER = join(__dirname, 'fixtures', 'scripted-lm-provider');

interface RecordedPart {
  type: 'text' | 'toolCall' | 'toolResult' | 'other';
  value?: string;
  callId?: string;
  name?: string;
  input?: unknown;
  content?: unknown[];
}
interface RecordedRequest {
  model: string;
  messages: Array<{ role: string; content: RecordedPart[] }>;
  tools: Array<{ name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }>;
  toolMode?: number;
}
interface ScriptedTurn {
  text?: string[];
  toolCalls?: Array<{ callId: string; name: string; input: object }>;
  chunkDelayMs?: number;
}

/**
 * `codewiki.provider: vscode` in a real VS Code (code-server 1.139): chat and the agent answer through a language
 * model another extension registers with `vscode.lm.registerLanguageModelChatProvider`, tools go over as
 * LanguageModelChatTools and their results come back as LanguageModelToolResultParts; with no such model the
 * view says so and what to do.
 */
vscodeSuite('extension in real VS Code: VS Code language models (codewiki.provider vscode)', function () {
  this.timeout(180_000);
  let browser: Browser;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  describe('with a scripted vscode.lm model', () => {
    let workspace: string;
    let scriptDir: string;
    let server: CodeServer;
    let workbench: Workbench;
    let view: FrameLocator;

    const script = (...turns: ScriptedTurn[]) => {
      // request n plays turn n, counted from the records the provider keeps
      for (const file of ['requests.jsonl', 'counts.jsonl', 'cancelled.jsonl']) rmSync(join(scriptDir, file), { force: true });
      writeFileSync(join(scriptDir, 'turns.json'), JSON.stringify(turns));
    };
    const records = <T>(file: string): T[] =>
      existsSync(join(scriptDir, file))
        ? readFileSync(join(scriptDir, file), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as T)
        : [];
    const requests = () => records<RecordedRequest>('requests.jsonl');
    const composer = () => view.locator('cw-composer textarea');

    before(async () => {
      workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-lm-'));
      scriptDir = mkdtempSync(join(tmpdir(), 'codewiki-e2e-lm-script-'));
      mkdirSync(join(workspace, 'src'), { recursive: true });
      writeFileSync(join(workspace, 'src/frequency.ts'), 'export function countWords() {\n  return "FREQ_BODY";\n}\n');
      script();
      server = await startCodeServer({
        workspace,
        trusted: true,
        extraExtensions: [SCRIPTED_PROVIDER],
        env: { SCRIPTED_LM_DIR: scriptDir },
        // No endpoint at all: every answer below can only come from the VS Code model.
        settings: { 'codewiki.provider': 'vscode', 'codewiki.chat.mode': 'chat' },
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
      for (const dir of [workspace, scriptDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers a chat question through the vscode.lm model: streamed into the view, the question in the request', async () => {
      script({ text: ['Hello', ' from', ' a VS Code', ' language model.'], chunkDelayMs: 150 });
      // The provider extension may activate after CodeWiki: the status follows vscode.lm.onDidChangeChatModels.
      await view.locator('cw-status-bar', { hasText: 'VS Code · Scripted Model' }).waitFor({ timeout: 60_000 });
      await composer().fill('What does CodeWiki do?');
      await composer().press('Enter');
      const answer = view.locator('cw-message [data-kind=assistant]').last();
      await answer.getByText('Hello from a VS Code language model.').waitFor({ timeout: 30_000 });

      const sent = requests();
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.model, 'scripted-model');
      assert.deepEqual(sent[0]!.messages.at(-1), { role: 'user', content: [{ type: 'text', value: 'What does CodeWiki do?' }] });
      assert.deepEqual(sent[0]!.tools, [], 'a plain chat answer offers no tools');
      assert.deepEqual(records('cancelled.jsonl'), [], 'a finished request is not cancelled afterwards');
    });

    it('runs an agent tool call: LanguageModelToolCallPart in, read_file runs, LanguageModelToolResultPart back', async () => {
      script(
        { toolCalls: [{ callId: 'call_read', name: 'read_file', input: { path: 'src/frequency.ts' } }] },
        { text: ['It is computed in ', 'src/frequency.ts:1.'] },
      );
      await workbench.runCommand('CodeWiki: New Chat');
      await view.locator('cw-composer button.mode[data-mode=agent]').click();
      await view.locator('cw-composer button.mode[data-mode=agent][aria-pressed=true]').waitFor({ timeout: 10_000 });
      await composer().fill('Where is the word frequency computed?');
      await composer().press('Enter');
      const turn = view.locator('[data-kind=agent-turn][data-status=done]').last();
      await turn.waitFor({ timeout: 60_000 });
      const shown = (await turn.textContent()) ?? '';
      assert.match(shown, /It is computed in src\/frequency\.ts:1\./);
      // Two: the code index's search CodeWiki made before the first turn, and the model's read_file.
      assert.match(shown, /2 tools/i, 'the tool calls are summarised in the turn');
      // Usage comes from the model's own countTokens: one count for each request's input and one for its output.
      const counts = records<{ count: number }>('counts.jsonl');
      assert.equal(counts.length, 4);
      const counted = counts.reduce((sum, { count }) => sum + count, 0);
      assert.match(shown, new RegExp(`${counted.toLocaleString('en-US')} tokens`));

      const [first, second] = requests();
      const readFile = first!.tools.find((tool) => tool.name === 'read_file');
      assert.ok(readFile, 'read_file went over as a LanguageModelChatTool');
      assert.ok(readFile.description, 'with its description');
      assert.ok(readFile.inputSchema.properties?.path, 'and its JSON Schema');
      assert.equal(first!.toolMode, 1, 'LanguageModelChatToolMode.Auto');
      assert.equal(first!.messages[0]!.role, 'user', 'the system prompt goes first, as a User message (VS Code has no System role)');

      const search = first!.messages.find((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'toolCall'));
      assert.equal(search?.content.find((p) => p.type === 'toolCall')?.name, 'search_code', "the index's search goes to a VS Code model as a tool call too");
      const assistant = second!.messages.findIndex((m) => m.role === 'assistant' && m.content.some((p) => p.type === 'toolCall' && p.name === 'read_file'));
      assert.ok(assistant > 0, 'the follow-up replays the assistant turn with its tool call');
      assert.deepEqual(
        second!.messages[assistant]!.content.find((p) => p.type === 'toolCall'),
        { type: 'toolCall', callId: 'call_read', name: 'read_file', input: { path: 'src/frequency.ts' } },
      );
      const results = second!.messages[assistant + 1]!;
      assert.equal(results.role, 'user');
      assert.equal(results.content.length, 1);
      const result = results.content[0]!;
      assert.equal(result.type, 'toolResult');
      assert.equal(result.callId, 'call_read');
      assert.match(String(result.content), /FREQ_BODY/, 'the file went back to the model');
    });

    it('Stop cancels the VS Code request: the provider sees its token cancelled, the view keeps what arrived', async () => {
      script({ text: Array.from({ length: 40 }, (_, i) => `word${i} `), chunkDelayMs: 500 });
      await workbench.runCommand('CodeWiki: New Chat');
      await view.locator('cw-composer button.mode[data-mode=chat]').click();
      await composer().fill('Count slowly');
      await composer().press('Enter');
      const answer = view.locator('cw-message [data-kind=assistant]').last();
      await answer.getByText('word1', { exact: false }).waitFor({ timeout: 30_000 });
      await view.locator('cw-composer button.stop').click();
      await view.locator('cw-message [data-kind=assistant][data-status=stopped]').waitFor({ timeout: 10_000 });
      const deadline = Date.now() + 10_000;
      while (!records('cancelled.jsonl').length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(records('cancelled.jsonl'), [{ request: 0 }], 'the provider was told to stop');
      assert.doesNotMatch((await answer.textContent()) ?? '', /word39/, 'the answer stopped early');
    });
  });

  describe('with no vscode.lm model', () => {
    let workspace: string;
    let server: CodeServer;
    let workbench: Workbench;

    before(async () => {
      workspace = mkdtempSync(join(tmpdir(), 'codewiki-e2e-nolm-'));
      server = await startCodeServer({ workspace, trusted: true, settings: { 'codewiki.provider': 'vscode', 'codewiki.chat.mode': 'chat' } });
      workbench = await Workbench.open(browser, server.workbenchUrl());
    });

    afterEach(async function () {
      if (this.currentTest?.state === 'failed') await saveFailureArtifacts(this.currentTest, workbench, server);
    });

    after(async () => {
      await workbench?.close();
      await server?.stop();
      if (workspace) rmSync(workspace, { recursive: true, force: true });
    });

    it('says so in the view, with what to do, and a question gets the same words instead of a stack', async () => {
      const view = await workbench.openCodeWikiView();
      const setup = view.locator('cw-empty-state section.setup[data-provider=vscode]');
      await setup.waitFor({ timeout: 60_000 });
      assert.match(
        (await setup.textContent()) ?? '',
        /No VS Code language model is available\. Install and sign in to an extension that provides one.*set CodeWiki › Provider to openai/s,
      );
      await setup.locator('button.open-settings').waitFor({ timeout: 5_000 });
      await view.locator('cw-status-bar', { hasText: 'VS Code · no model available' }).waitFor({ timeout: 5_000 });

      await view.locator('cw-composer textarea').fill('Hello?');
      await view.locator('cw-composer textarea').press('Enter');
      const answer = view.locator('cw-message [data-kind=assistant]').last();
      await answer.getByText('No VS Code language model is available', { exact: false }).waitFor({ timeout: 30_000 });
      assert.doesNotMatch((await answer.textContent()) ?? '', /\bat \S+\.(js|ts):\d+/, 'no stack trace');
    });
  });
});
