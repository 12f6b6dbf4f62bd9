import * as vscode from 'vscode';
import type { CodeWikiViewProvider } from '../codewikiViewProvider';
import type { WorkspaceEngine } from '../workspaceEngine';
import { AuthoringCodeLensProvider } from './authoringCodeLens';
import { registerAuthoringCommands } from './authoringCommands';
import { authoringSelector } from './authoringDocuments';
import { AuthoringEnvironmentSource } from './authoringEnvironmentSource';
import { DryRunDocuments } from './dryRunDocuments';
import { AuthoringCodeActionProvider, AuthoringCompletionProvider, AuthoringDefinitionProvider, AuthoringHoverProvider } from './languageProviders';
import { LiveDiagnostics } from './liveDiagnostics';

export interface AuthoringDeps {
  engine: WorkspaceEngine;
  view: Pick<CodeWikiViewProvider, 'reveal' | 'post'>;
  maxInputTokens(): number;
}

/**
 * Editor help for `.codewiki/prompts/**`, `.codewiki/agents/**` and the `codewiki.promptFolders` folders of
 * every folder, without another extension (see docs/authoring.md).
 */
export function registerAuthoring(deps: AuthoringDeps): vscode.Disposable[] {
  const environment = new AuthoringEnvironmentSource(deps.engine);
  const diagnostics = new LiveDiagnostics(deps.engine.diagnostics, environment, deps.engine.onDidChange);
  const dryRuns = new DryRunDocuments();
  const providers = (selector: vscode.DocumentSelector) => [
    vscode.languages.registerCompletionItemProvider(selector, new AuthoringCompletionProvider(environment), ...AuthoringCompletionProvider.triggerCharacters),
    vscode.languages.registerHoverProvider(selector, new AuthoringHoverProvider(environment)),
    vscode.languages.registerDefinitionProvider(selector, new AuthoringDefinitionProvider()),
    vscode.languages.registerCodeActionsProvider(selector, new AuthoringCodeActionProvider(environment), AuthoringCodeActionProvider.metadata),
    vscode.languages.registerCodeLensProvider(selector, new AuthoringCodeLensProvider()),
  ];
  return [
    diagnostics,
    dryRuns,
    vscode.workspace.registerTextDocumentContentProvider(DryRunDocuments.scheme, dryRuns),
    new SelectorRegistrations(providers),
    ...registerAuthoringCommands({ ...deps, environment, diagnostics, dryRuns }),
  ];
}

/** The providers under the current selector, registered again when `codewiki.promptFolders` or the window's folders change. */
class SelectorRegistrations implements vscode.Disposable {
  private registered: vscode.Disposable[] = [];
  private readonly listeners: vscode.Disposable[];

  constructor(private readonly register: (selector: vscode.DocumentSelector) => vscode.Disposable[]) {
    this.refresh();
    this.listeners = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('codewiki.promptFolders')) this.refresh();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
    ];
  }

  dispose(): void {
    [...this.registered, ...this.listeners].forEach((d) => d.dispose());
  }

  private refresh(): void {
    this.registered.forEach((d) => d.dispose());
    this.registered = this.register(authoringSelector());
  }
}
