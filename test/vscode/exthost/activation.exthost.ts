import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

/** Runs inside the real extension host, next to CodeWiki: the vscode API is the real one. */
describe('CodeWiki in the extension host', () => {
  it('activates and registers every contributed command', async () => {
    const extension = vscode.extensions.getExtension('codewiki.codewiki');
    assert.ok(extension, 'the extension under development is loaded');
    await extension.activate();
    assert.equal(extension.isActive, true);

    const contributed = (extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((command) => !registered.has(command)),
      [],
    );
  });

  it('sees the environment the test gave the server', () => {
    assert.equal(process.env.CODEWIKI_EXTHOST_PROBE, 'reached the extension host');
  });
});
