import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

/**
 * Runs in a workspace opened in Restricted Mode (security.md #1): CodeWiki loads no workspace
 * prompts there, so the authoring commands refuse and the editor offers field names only.
 */
describe('authoring in Restricted Mode', () => {
  it('refuses the CodeLens commands, reports no tools and publishes no problems', async () => {
    await vscode.extensions.getExtension('codewiki.codewiki')!.activate();
    assert.equal(vscode.workspace.isTrusted, false);
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, '.codewiki', 'prompts', 'lens.yaml');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);

    assert.equal(await vscode.commands.executeCommand('codewiki.authoring.validate', uri), undefined);
    assert.equal(await vscode.commands.executeCommand('codewiki.authoring.dryRun', uri, { topic: 'x' }), undefined);
    assert.equal(await vscode.commands.executeCommand('codewiki.authoring.run', uri), undefined);
    assert.equal(
      vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'codewiki-dry-run'),
      false,
    );

    const toolLine = document.getText().indexOf('tool: outline') + 'tool: '.length;
    const tools = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, document.positionAt(toolLine));
    assert.equal(
      tools.items.some((i) => i.label === 'read_file' || i.label === 'outline'),
      false,
      'no tool or prompt is offered',
    );
    const fields = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      new vscode.Position(document.lineCount - 1, 0),
    );
    assert.ok(
      fields.items.some((i) => i.label === 'description'),
      'field names still are',
    );
    assert.deepEqual(vscode.languages.getDiagnostics(uri), []);
  });
});
