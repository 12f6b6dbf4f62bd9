import { join } from 'node:path';
import * as vscode from 'vscode';
import { disabledCodeIndex } from '../core/codebaseIndex/disabledCodeIndex';
import { createCodewikiEngine, type CodewikiEngine } from '../core/codewikiEngine';
import type { ModelProvider } from '../core/llm/modelProvider';
import { problemsByFile } from '../core/session/promptSummaries';
import { pointRange, toVscodeDiagnostic } from './authoring/vscodeDiagnostics';
import type { CodewikiSettings } from './extensionSettings';
import type { WorkspaceIndex } from './codeIndex/workspaceIndex';
import { configuredWikiFolder } from './wiki/wikiFolderSetting';
import { diskFolders, folderSpecs, isInside, promptFolderDirs, promptFolderSettings } from './workspaceFolders';

export interface EngineState {
  engine?: CodewikiEngine;
  /** Why action prompts cannot run right now, in words for the user. */
  unavailable?: string;
}

/**
 * Owns the engine for the open workspace, over every folder of it: built lazily on first use, rebuilt
 * when prompt files, settings, trust or the workspace's folders change, and never built in Restricted
 * Mode, where workspace prompts are not loaded and file tools do not run (security.md #1). Prompt
 * problems go to the Problems panel.
 */
export class WorkspaceEngine implements vscode.Disposable {
  private current: Promise<EngineState> | undefined;
  /** The one CodeWiki collection in the Problems panel: saved files' problems here, open files' as you type (authoring/liveDiagnostics.ts). */
  readonly diagnostics = vscode.languages.createDiagnosticCollection('codewiki');
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly builtinPromptsDir: string,
    private readonly settings: () => CodewikiSettings,
    private readonly models: () => ModelProvider,
    private readonly codeIndex?: WorkspaceIndex,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}');
    const onPromptFile = (uri: vscode.Uri) => {
      if (this.isPromptFile(uri)) this.invalidate();
    };
    this.disposables.push(
      watcher,
      this.changed,
      watcher.onDidCreate(onPromptFile),
      watcher.onDidChange(onPromptFile),
      watcher.onDidDelete(onPromptFile),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.invalidate()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
    );
  }

  get(): Promise<EngineState> {
    this.current ??= this.build();
    return this.current;
  }

  /** Drops the engine; the next use rebuilds it, and listeners (the prompt list) refresh now. */
  invalidate(): void {
    this.current = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private async build(): Promise<EngineState> {
    const folders = folderSpecs();
    if (!folders.length) {
      return { unavailable: 'Open a folder to run action prompts: they read files from the workspace.' };
    }
    if (!vscode.workspace.isTrusted) {
      this.diagnostics.clear();
      return { unavailable: 'This workspace is in Restricted Mode: trust it to run action prompts (they read workspace files).' };
    }
    const settings = this.settings();
    try {
      const engine = await createCodewikiEngine({
        // Every folder of a multi-root workspace, first one first; rebuilt when folders are added or removed.
        workspaceRoots: folders,
        builtinPromptsDir: this.builtinPromptsDir,
        promptFolders: promptFolderSettings(),
        workspace: { allowSecrets: settings.allowSecretFiles },
        dialect: { allowedEnv: settings.dialectAllowedEnv, env: process.env },
        models: this.models(),
        executor: { maxInputTokens: settings.maxInputTokens },
        // codewiki.wiki.folder, kept inside the first folder; the wiki commands refuse a setting that points elsewhere.
        wikiDir: (await configuredWikiFolder())?.dir,
        // The window's index (a worker thread) outlives engine rebuilds. Never one in this thread: parsing would block the extension host.
        codeIndex: (workspace) => this.codeIndex?.forRoots(workspace.roots) ?? disabledCodeIndex('the code index is off (codewiki.index.enabled)'),
      });
      this.publishProblems(engine);
      return { engine };
    } catch (error) {
      return { unavailable: `Action prompts could not be loaded: ${(error as Error).message}` };
    }
  }

  private publishProblems(engine: CodewikiEngine): void {
    this.diagnostics.clear();
    for (const [file, problems] of problemsByFile([...engine.catalog.entries(), ...engine.catalog.duplicateEntries(), ...engine.agents.entries()])) {
      this.diagnostics.set(
        vscode.Uri.file(file),
        problems.map((p) => toVscodeDiagnostic(p, pointRange(p))),
      );
    }
  }

  /** A prompt or agent file of any folder (its .codewiki/, or a codewiki.promptFolders folder): a change reloads the catalog. */
  private isPromptFile(uri: vscode.Uri): boolean {
    if (uri.scheme !== 'file') return false;
    const own = diskFolders().flatMap((folder) => [join(folder.uri.fsPath, '.codewiki', 'prompts'), join(folder.uri.fsPath, '.codewiki', 'agents')]);
    return [...own, ...promptFolderDirs()].some((dir) => isInside(dir, uri.fsPath));
  }
}
