import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { HostMessageRouter, type RouterDeps } from '../../../src/extension/hostMessageRouter';
import type { HostToWebview } from '../../../src/shared/protocol';

/**
 * `selection/request` through the real router with the real editor: what `#selection` attaches when a
 * message is sent. The router needs nothing else for this message, so the other dependencies are absent.
 */
describe('#selection: the router answers selection/request from the active editor', () => {
  const posted: HostToWebview[] = [];
  const logged: string[] = [];
  const router = new HostMessageRouter({
    post: (message: HostToWebview) => posted.push(message),
    log: (line: string) => logged.push(line),
  } as unknown as RouterDeps);
  const ask = async (requestId: string) => {
    posted.length = 0;
    await router.handle({ type: 'selection/request', requestId });
    return posted;
  };

  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('sends the selected whole lines (1-based, workspace-relative), or why there are none', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the suite runs with a workspace folder');
    const file = join(folder, 'selection-probe.ts');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));

    // Lines 2 and 3: a selection that ends at column 0 of line 4 does not take line 4.
    editor.selection = new vscode.Selection(1, 1, 3, 0);
    assert.deepEqual(await ask('r1'), [
      { type: 'selection/current', requestId: 'r1', selection: { kind: 'selection', path: 'selection-probe.ts', startLine: 2, endLine: 3 } },
    ]);

    editor.selection = new vscode.Selection(2, 0, 2, 0);
    assert.deepEqual(await ask('r2'), [
      { type: 'selection/current', requestId: 'r2', problem: '#selection: nothing is selected in the editor; select some lines first.' },
    ]);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.deepEqual(await ask('r3'), [{ type: 'selection/current', requestId: 'r3', problem: '#selection: select some lines in a workspace file first.' }]);
  });

  it('drops a request without its id, as any malformed message', async () => {
    posted.length = 0;
    await router.handle({ type: 'selection/request' });
    assert.deepEqual(posted, []);
    assert.match(logged.at(-1) ?? '', /Ignored an invalid message from the webview/);
  });
});
