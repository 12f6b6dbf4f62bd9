import * as vscode from 'vscode';
import type { WorkspaceIndex } from './workspaceIndex';

/** CodeWiki: Rebuild Index (with progress and Cancel), and the status bar's stop while it builds. */
export function registerIndexCommands(index: WorkspaceIndex): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('codewiki.rebuildIndex', async () => {
      if (!index.status()) {
        return void vscode.window.showWarningMessage(
          vscode.workspace.isTrusted
            ? 'CodeWiki: open a folder to index it (or turn on codewiki.index.enabled).'
            : 'CodeWiki: trust this workspace to index it: indexing reads its files.',
        );
      }
      const status = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'CodeWiki: rebuilding the code index', cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => index.stop());
          let reported = 0;
          const listener = index.onDidChangeStatus((s) => {
            if (!s?.totalFiles) return;
            const done = Math.round((100 * s.indexedFiles) / s.totalFiles);
            progress.report({
              message: `${s.indexedFiles.toLocaleString('en-US')} of ${s.totalFiles.toLocaleString('en-US')} files`,
              increment: Math.max(0, done - reported),
            });
            reported = Math.max(reported, done);
          });
          return index.rebuild().finally(() => listener.dispose());
        },
      );
      if (status?.state === 'ready')
        void vscode.window.showInformationMessage(
          `CodeWiki: indexed ${status.indexedFiles.toLocaleString('en-US')} files, ${status.symbols.toLocaleString('en-US')} definitions.`,
        );
    }),
    vscode.commands.registerCommand('codewiki.stopIndexing', () => index.stop()),
  ];
}
