import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { INDEX_PAGE } from '../../core/wiki/structure/pagePaths';
import type { WorkspaceEngine } from '../workspaceEngine';
import { type ModelAvailability, WikiGeneration, whyNotHere } from './wikiGeneration';
import { WikiPanel } from './wikiPanel';

export interface WikiDeps {
  extensionUri: vscode.Uri;
  engine: WorkspaceEngine;
  models(): Promise<ModelAvailability>;
  log(line: string): void;
}

/** CodeWiki: Generate Wiki and CodeWiki: Open Wiki, over one panel and one generation per window. */
export function registerWiki(deps: WikiDeps): vscode.Disposable[] {
  const engine = () => deps.engine.get();
  const panel: WikiPanel = new WikiPanel(deps.extensionUri, {
    engine,
    generate: () => void generation.generate(),
    stop: () => generation.stop(),
    log: deps.log,
  });
  const generation = new WikiGeneration({ panel, engine, models: deps.models, log: deps.log });

  const openWiki = async () => {
    const refusal = await whyNotHere();
    if (refusal) return void vscode.window.showWarningMessage(`CodeWiki: ${refusal}`);
    await panel.show();
    const { engine: ready } = await engine();
    if (!ready || generation.isRunning || existsSync(join(ready.wiki.wikiDir, INDEX_PAGE))) return;
    const choice = await vscode.window.showInformationMessage('CodeWiki: this workspace has no wiki yet. Generate it?', 'Generate Wiki');
    if (choice === 'Generate Wiki') await generation.generate();
  };

  return [
    panel,
    new vscode.Disposable(() => generation.stop()),
    vscode.commands.registerCommand('codewiki.generateWiki', () => generation.generate()),
    vscode.commands.registerCommand('codewiki.openWiki', openWiki),
    // A new engine may mean a new wiki folder (codewiki.wiki.folder) or new trust: the panel follows.
    deps.engine.onDidChange(() => {
      if (panel.isOpen) void panel.refresh();
    }),
  ];
}
