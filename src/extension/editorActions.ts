import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { activeFolder } from './workspaceFolders';

/** What the code-block and answer buttons do in the editor. */
export const editorActions = {
  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage('$(check) Copied', 2000);
  },

  async insertAtCursor(text: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage('CodeWiki: open a file to insert into.');
      return;
    }
    await editor.edit((edit) => editor.selections.forEach((selection) => edit.replace(selection, text)));
  },

  async newFile(text: string, language?: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ content: text, language: language || undefined });
    await vscode.window.showTextDocument(document);
  },

  /** The dialog starts in the active editor's folder (in a multi-root workspace, the one the user works in). */
  async saveToFile(text: string): Promise<void> {
    const folder = activeFolder()?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder && vscode.Uri.joinPath(folder, 'codewiki-answer.md'),
      filters: { Markdown: ['md'], 'All files': ['*'] },
    });
    if (!target) return;
    await writeFile(target.fsPath, text);
    await vscode.window.showTextDocument(target);
  },

  async openFile(path: string): Promise<void> {
    await vscode.window.showTextDocument(vscode.Uri.file(path));
  },
};
