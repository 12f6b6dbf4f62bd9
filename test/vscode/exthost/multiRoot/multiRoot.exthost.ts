import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { NO_MODELS } from '../../../../src/core/llm/modelProvider';
import { readSettings } from '../../../../src/extension/extensionSettings';
import { HostMessageRouter, type RouterDeps } from '../../../../src/extension/hostMessageRouter';
import { WorkspaceEngine } from '../../../../src/extension/workspaceEngine';
import type { HostToWebview } from '../../../../src/shared/protocol';

/**
 * Runs inside the real extension host of code-server, in the multi-root workspace extensionMultiRoot.test.ts
 * made: the folders `app` and `lib` (in that order), the workspace file setting `codewiki.promptFolders:
 * ["team-prompts"]`, and a third folder `extra` that is not open yet. Each test names the folder it needs;
 * nothing may silently come from the first one.
 */
const folder = (name: string) => {
  const found = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(found, `the workspace has the folder ${name}`);
  return found.uri;
};
const fileIn = (name: string, ...path: string[]) => vscode.Uri.joinPath(folder(name), ...path);

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(uri: vscode.Uri): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

const lensTitles = async (uri: vscode.Uri) =>
  (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)).map((l) => l.command?.title);
const problems = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).map((d) => d.message);

/** Runs the ▶ Run lens: it answers with the prompt's id only when the engine loaded that very file. */
async function runLens(uri: vscode.Uri): Promise<unknown> {
  await vscode.workspace.openTextDocument(uri); // the lens provider command needs the document loaded
  const lens = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)).find((l) => l.command?.title === '▶ Run');
  assert.ok(lens?.command, `a Run lens above ${uri.fsPath}`);
  return vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
}

describe('a multi-root workspace', () => {
  before(async () => {
    await vscode.extensions.getExtension('codewiki.codewiki')!.activate();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("loads action prompts from every folder: the second folder's prompt is the one its Run lens runs", async () => {
    await open(fileIn('lib', '.codewiki', 'prompts', 'lib-read.yaml'));
    assert.equal(await until('the engine to load lib-read', () => runLens(fileIn('lib', '.codewiki', 'prompts', 'lib-read.yaml'))), 'lib-read');
  });

  it("a prompt id both folders define: the first folder's runs, the second's file shows an error naming both files", async () => {
    const appShared = fileIn('app', '.codewiki', 'prompts', 'shared.yaml');
    const libShared = fileIn('lib', '.codewiki', 'prompts', 'shared.yaml');
    await open(libShared);
    const message = await until('the duplicate-id problem', () => problems(libShared).find((m) => m.includes('already defined')));
    assert.ok(message.includes(appShared.fsPath) && message.includes(libShared.fsPath), message);
    assert.equal(await runLens(appShared), 'shared');
    assert.deepEqual(problems(appShared), []);
  });

  it('loads agent definitions from every folder: a broken one in the second folder is in the Problems panel unopened', async () => {
    await open(fileIn('app', 'src', 'main.ts')); // any use builds the engine; the agent file itself stays closed
    const broken = fileIn('lib', '.codewiki', 'agents', 'broken.yaml');
    await until("the engine to publish lib's agent problem", async () => {
      await runLens(fileIn('app', '.codewiki', 'prompts', 'shared.yaml'));
      return problems(broken).some((m) => m.includes('max_iterations'));
    });
  });

  it('codewiki.promptFolders files in every folder get CodeLens, completion and problems as you type, and run', async () => {
    for (const uri of [fileIn('lib', 'team-prompts', 'team-check.yaml'), fileIn('app', 'team-prompts', 'app-team.yaml')]) {
      await open(uri);
      assert.deepEqual(await until(`lenses above ${uri.fsPath}`, async () => ((await lensTitles(uri)).length ? lensTitles(uri) : undefined)), [
        '▶ Run',
        'Dry run',
        'Validate',
      ]);
    }
    const uri = fileIn('lib', 'team-prompts', 'team-check.yaml');
    assert.equal(await until('the engine to load team-check', () => runLens(uri)), 'team-check');
    const editor = await open(uri);
    const document = editor.document;
    const at = document.positionAt(document.getText().indexOf('tool: read_file') + 'tool: rea'.length);
    await editor.edit((b) => b.replace(new vscode.Range(at.translate(0, -3), at.translate(0, 6)), 'rea'));
    const items = await until('tool completions', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, at);
      return list.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'read_file') ? list.items : undefined;
    });
    assert.ok(items.length > 0);
    const problem = await until('the unknown-tool problem', () => problems(uri).find((m) => m.includes('unknown tool "rea"')));
    assert.match(problem, /^tool_chain\[0\]\.tool: unknown tool "rea"/);
    assert.equal(document.isDirty, true, 'checked as typed, not saved');
  });

  it('#selection names a file of the second folder lib/…', async () => {
    const posted: HostToWebview[] = [];
    const router = new HostMessageRouter({ post: (m: HostToWebview) => posted.push(m), log: () => undefined } as unknown as RouterDeps);
    const editor = await open(fileIn('lib', 'src', 'manifest.ts'));
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    await router.handle({ type: 'selection/request', requestId: 's1' });
    assert.deepEqual(posted, [
      { type: 'selection/current', requestId: 's1', selection: { kind: 'selection', path: 'lib/src/manifest.ts', startLine: 1, endLine: 1 } },
    ]);
  });

  it('the engine takes every folder (path suggestions name them) and is rebuilt when a folder is added', async () => {
    const builtin = join(vscode.extensions.getExtension('codewiki.codewiki')!.extensionPath, 'action-prompts');
    const engine = new WorkspaceEngine(
      builtin,
      () => readSettings(),
      () => NO_MODELS,
    );
    const posted: HostToWebview[] = [];
    const router = new HostMessageRouter({ engine, post: (m: HostToWebview) => posted.push(m), log: () => undefined } as unknown as RouterDeps);
    const suggest = async (prefix: string) => {
      posted.length = 0;
      await router.handle({ type: 'path/suggest', requestId: 'p', prefix });
      return (posted[0] as Extract<HostToWebview, { type: 'path/suggestions' }>).items;
    };
    try {
      assert.deepEqual((await engine.get()).engine?.workspace.folderNames, ['app', 'lib']);
      assert.deepEqual(await suggest('lib/s'), ['lib/src/']);
      assert.deepEqual(await suggest('lib/src/m'), ['lib/src/manifest.ts']);
      assert.ok((await suggest('')).includes('lib/'), 'the other folders are offered at the top level');

      const extra = vscode.Uri.file(join(folder('app').fsPath, '..', 'extra'));
      assert.ok(vscode.workspace.updateWorkspaceFolders(2, 0, { uri: extra, name: 'extra' }));
      // The engine is cached until something invalidates it: only its folder listener can bring the third folder in.
      await until('the engine rebuilt with the new folder', async () => (await engine.get()).engine?.workspace.folderNames.length === 3);
      assert.deepEqual((await engine.get()).engine?.workspace.folderNames, ['app', 'lib', 'extra']);
      assert.deepEqual(await suggest('extra/'), ['extra/notes.md']);
    } finally {
      if (vscode.workspace.workspaceFolders?.length === 3) vscode.workspace.updateWorkspaceFolders(2, 1);
      engine.dispose();
    }
  });
});
