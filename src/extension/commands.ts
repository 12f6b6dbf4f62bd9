import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import type { CodeWikiViewProvider } from './codewikiViewProvider';
import { NEW_PROMPT_TEMPLATE } from './newPromptTemplate';
import type { WorkspaceEngine } from './workspaceEngine';
import { diskFolders } from './workspaceFolders';

export interface CommandDeps {
  view: CodeWikiViewProvider;
  engine: WorkspaceEngine;
  apiKeys: ApiKeyStore;
  newConversation(): Promise<void>;
  addSelectionToChat(): Promise<void>;
  openToolTester(): void;
}

/** The palette commands. Those that touch the workspace refuse in Restricted Mode, not just hide. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { view, engine, apiKeys } = deps;
  return [
    vscode.commands.registerCommand('codewiki.newChat', async () => {
      await view.reveal();
      await deps.newConversation();
      // From the palette the History panel may be the one showing: a new chat is shown, not left behind it.
      view.post({ type: 'ui/show', view: 'chat' });
    }),
    vscode.commands.registerCommand('codewiki.showHistory', async () => {
      await view.reveal();
      view.post({ type: 'ui/show', view: 'history' });
    }),
    vscode.commands.registerCommand('codewiki.runActionPrompt', async () => {
      const { engine: ready, unavailable } = await engine.get();
      if (!ready) return void vscode.window.showWarningMessage(`CodeWiki: ${unavailable}`);
      const items = ready.catalog.entries().map((e) => ({
        label: e.prompt ? e.title : `$(error) ${e.title}`,
        description: `${e.id} · ${e.source === 'builtin' ? 'built-in' : 'workspace'}`,
        detail: e.prompt ? e.description : e.diagnostics[0]?.message,
        id: e.id,
      }));
      const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Run an action prompt', matchOnDescription: true, matchOnDetail: true });
      if (!picked) return;
      await view.reveal();
      view.post({ type: 'ui/show', view: 'agent', promptId: picked.id });
    }),
    vscode.commands.registerCommand('codewiki.newActionPrompt', async () => {
      const folders = diskFolders();
      if (!folders.length) return void vscode.window.showWarningMessage('CodeWiki: open a folder first.');
      if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage('CodeWiki: trust this workspace to create action prompts.');
      // In a multi-root workspace the user says which folder's .codewiki/prompts gets it.
      const folder =
        folders.length === 1
          ? folders[0]
          : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder for the new action prompt (its .codewiki/prompts)' });
      if (!folder) return;
      if (folder.uri.scheme !== 'file') return void vscode.window.showWarningMessage(`CodeWiki: ${folder.name} is not a folder on disk.`);
      const name = await vscode.window.showInputBox({
        prompt: 'Name of the new action prompt (its id)',
        value: 'my-prompt',
        validateInput: (v) => (/^[A-Za-z0-9_-]+$/.test(v) ? undefined : 'Letters, digits, - and _ only'),
      });
      if (!name) return;
      const dir = join(folder.uri.fsPath, '.codewiki', 'prompts');
      const file = join(dir, `${name}.yaml`);
      if (existsSync(file)) return void vscode.window.showWarningMessage(`CodeWiki: ${name}.yaml already exists.`);
      await mkdir(dir, { recursive: true });
      await writeFile(file, NEW_PROMPT_TEMPLATE);
      await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
    vscode.commands.registerCommand('codewiki.setApiKey', async () => {
      const key = await vscode.window.showInputBox({
        prompt: 'API key for the model endpoint (stored in VS Code SecretStorage)',
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      await apiKeys.set(key.trim());
      void vscode.window.showInformationMessage('CodeWiki: API key saved.');
    }),
    vscode.commands.registerCommand('codewiki.addSelectionToChat', () => deps.addSelectionToChat()),
    // Opens in Restricted Mode too: the page then says why no tools are listed, and the probe still works.
    vscode.commands.registerCommand('codewiki.openToolTester', () => deps.openToolTester()),
    vscode.commands.registerCommand('codewiki.clearApiKey', async () => {
      await apiKeys.clear();
      void vscode.window.showInformationMessage('CodeWiki: API key cleared.');
    }),
  ];
}
