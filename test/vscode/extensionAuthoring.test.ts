import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureCodeServer, vscodeSuite } from './codeServer';
import { bundleOneSuite } from './extensionHostBuild';
import { runExtensionHostSuite } from './extensionHostSuite';
import { launchBrowser } from './workbench';

const DRAFT = [
  'title: Draft',
  'input_variables:',
  '  - name: topic',
  'tool_chain:',
  '  - tool: outline',
  '    input: { topic: "{topic}" }',
  '    output_variable: plan',
  'llm_prompt_template:',
  '  human: "About {topic}, following {plan}"',
  '',
].join('\n');
const OUTLINE = 'title: Outline\ndescription: Outlines a topic.\ninput_variables:\n  - name: topic\nllm_prompt_template:\n  human: "Outline {topic}"\n';

/**
 * Issue 10 §2: completion, diagnostics as you type, quick fixes, hover, go to definition and the
 * CodeLens commands, asserted through the vscode API inside the real extension host of code-server
 * (test/vscode/exthost/authoring/). The suite has its own entry point, so the smoke test's suite does not run it.
 */
vscodeSuite('authoring action prompts in real VS Code', function () {
  this.timeout(240_000);
  let browser: Browser;
  let workspace: string;
  let outDir: string;
  let restrictedOutDir: string;

  before(async function () {
    this.timeout(30 * 60_000);
    ensureCodeServer();
    browser = await launchBrowser();
    workspace = mkdtempSync(join(tmpdir(), 'codewiki-authoring-ws-'));
    mkdirSync(join(workspace, '.codewiki/prompts'), { recursive: true });
    for (const name of ['complete', 'problems', 'navigate', 'lens']) writeFileSync(join(workspace, `.codewiki/prompts/${name}.yaml`), DRAFT);
    writeFileSync(join(workspace, '.codewiki/prompts/outline.yaml'), OUTLINE);
    outDir = await bundleOneSuite('authoring/authoring.exthost.ts');
    restrictedOutDir = await bundleOneSuite('authoringRestricted/authoringRestricted.exthost.ts');
  });

  after(async () => {
    await browser?.close();
    rmSync(workspace, { recursive: true, force: true });
    for (const dir of [outDir, restrictedOutDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('completion items, diagnostics with quick fixes, hover, definition and the CodeLens commands', async () => {
    const run = await runExtensionHostSuite(browser, { workspace, testsPath: join(outDir, 'index.js'), timeoutMs: 180_000 });
    const report = run.output.join('\n');
    assert.equal(run.exitCode, 0, `the extension-host suite failed:\n${report}`);
    assert.match(report, /4 passing/);
  });

  it('in Restricted Mode: the commands refuse, no tools are offered, no problems are published', async () => {
    const run = await runExtensionHostSuite(browser, { workspace, trusted: false, testsPath: join(restrictedOutDir, 'index.js'), timeoutMs: 180_000 });
    const report = run.output.join('\n');
    assert.equal(run.exitCode, 0, `the extension-host suite failed:\n${report}`);
    assert.match(report, /1 passing/);
  });
});
