import * as vscode from 'vscode';
import type { CodeWikiViewProvider } from '../codewikiViewProvider';
import type { WorkspaceEngine } from '../workspaceEngine';
import { AuthoringCodeLensProvider } from './authoringCodeLens';
import { registerAuthoringCommands } from './authoringCommands';
import { AUTHORING_SELECTOR } from './authoringDocuments';
import { AuthoringEnvironmentSource } from './authoringEnvironmentSource';
import { DryRunDocuments } from './dryRunDocuments';
import { AuthoringCodeActionProvider, AuthoringCompletionProvider, AuthoringDefinitionProvider, AuthoringHoverProvider } from './languageProviders';
import { LiveDiagnostics } from './liveDiagnostics';

export interface AuthoringDeps {
  engine: WorkspaceEngine;
  view: Pick<CodeWikiViewProvider, 'reveal' | 'post'>;
  maxInputTokens(): number;
}

/** Editor help for `.codewiki/prompts/**` and `.codewiki/agents/**` without another extension (see docs/authoring.md). */
export function registerAuthoring(deps: AuthoringDeps): vscode.Disposable[] {
  const environment = new AuthoringEnvironmentSource(deps.engine);
  const diagnostics = new LiveDiagnostics(deps.engine.diagnostics, environment, deps.engine.onDidChange);
  const dryRuns = new DryRunDocuments();
  return [
    diagnostics,
    dryRuns,
    vscode.workspace.registerTextDocumentContentProvider(DryRunDocuments.scheme, dryRuns),
    vscode.languages.registerCompletionItemProvider(AUTHORING_SELECTOR, new AuthoringCompletionProvider(environment), ...AuthoringCompletionProvider.triggerCharacters),
    vscode.languages.registerHoverProvider(AUTHORING_SELECTOR, new AuthoringHoverProvider(environment)),
    vscode.languages.registerDefinitionProvider(AUTHORING_SELECTOR, new AuthoringDefinitionProvider()),
    vscode.languages.registerCodeActionsProvider(AUTHORING_SELECTOR, new AuthoringCodeActionProvider(environment), AuthoringCodeActionProvider.metadata),
    vscode.languages.registerCodeLensProvider(AUTHORING_SELECTOR, new AuthoringCodeLensProvider()),
    ...registerAuthoringCommands({ ...deps, environment, diagnostics, dryRuns }),
  ];
}
