import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { Workspace } from '../../../src/core/workspace/workspace';
import { resolveCitedFile } from '../../../src/extension/citedFile';
import { openWorkspaceFile } from '../../../src/extension/editorContext';

/**
 * What a `path:line` link in an answer opens (the `file/open` message runs openWorkspaceFile): answers cite the end of
 * a path (`JsonWriter.java:3`, `stream/JsonWriter.java:3`) as often as the whole of it. The real file search of the
 * real extension host.
 */
describe("an answer's link opens the file whose path it ends", () => {
  let folder: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(folder, 'cited', path)), { recursive: true });
    writeFileSync(join(folder, 'cited', path), text);
  };
  const activePath = () => vscode.window.activeTextEditor?.document.uri.fsPath;

  before(() => {
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(folder, 'the suite runs with a workspace folder');
    write('gson/stream/JsonWriter.java', 'package stream;\n\nclass JsonWriter {\n  void newline() {}\n}\n');
    write('node_modules/dep/JsonWriter.java', 'class JsonWriter {}\n');
    write('one/Twin.java', 'class Twin {}\n');
    write('two/Twin.java', 'class Twin {}\n');
    write('.ssh/cited_hosts.txt', 'host secret\n');
  });
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  after(() => rmSync(join(folder, 'cited'), { recursive: true, force: true }));

  it('opens the one file a bare name or a partial path ends (not a dependency’s), at the cited line', async () => {
    await openWorkspaceFile('JsonWriter.java', 3, undefined);
    assert.equal(activePath(), join(folder, 'cited/gson/stream/JsonWriter.java'));
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 2, 'line 3, counted from 1');

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openWorkspaceFile('stream/JsonWriter.java', 4, undefined);
    assert.equal(activePath(), join(folder, 'cited/gson/stream/JsonWriter.java'));
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 3);
  });

  it('offers the files a name could be, and opens the one chosen, or none when the choice is dismissed', async () => {
    const workspace = await Workspace.open(folder);
    const offered: string[][] = [];
    const chosen = await resolveCitedFile(workspace, 'Twin.java', async (paths, placeHolder) => {
      offered.push(paths);
      assert.equal(placeHolder, '2 files end with Twin.java: open which one?');
      return paths[1];
    });
    assert.deepEqual(offered, [['cited/one/Twin.java', 'cited/two/Twin.java']]);
    assert.equal(chosen?.absolute, join(folder, 'cited/two/Twin.java'));
    assert.equal(await resolveCitedFile(workspace, 'Twin.java', async () => undefined), undefined, 'dismissed: nothing to open');
  });

  it('refuses what no file ends, and a file in a secret folder found by its name, saying why', async () => {
    await assert.rejects(openWorkspaceFile('Nowhere.java', 1, undefined), /Nowhere\.java.* does not exist in the workspace/);
    await assert.rejects(openWorkspaceFile('cited_hosts.txt', 1, undefined), /cited\/\.ssh\/cited_hosts\.txt.* may contain secrets/);
    assert.equal(activePath(), undefined, 'nothing was opened');
  });
});
