import * as vscode from 'vscode';
import { readSettings } from '../extensionSettings';
import type { ExtensionLocalModel } from './extensionLocalModel';

/** **CodeWiki: Start Local Model**: the offer's button, for when the notification was dismissed. */
export function registerLocalModelCommands(localModel: ExtensionLocalModel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('codewiki.startLocalModel', async () => {
      const settings = readSettings();
      if (settings.provider !== 'openai' || settings.baseUrl || settings.model) {
        return void vscode.window.showInformationMessage(
          'CodeWiki: a model is configured (CodeWiki › Base Url and Model, or CodeWiki › Provider), so the local model is not used. Clear those settings to use it.',
        );
      }
      await localModel.start();
    }),
  ];
}
