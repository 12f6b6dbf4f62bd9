import { basename } from 'node:path';
import * as vscode from 'vscode';
import { ActionPromptError, formatDiagnostic } from '../../core/yaml/diagnostics';
import { promptIdOf } from '../../core/actionPrompt/promptCatalog';
import { missingRequiredInputs, resolveRunInputs } from '../../core/actionPrompt/runInputs';
import { dryRunPreview } from '../../core/authoring';
import type { CodeWikiViewProvider } from '../codewikiViewProvider';
import type { WorkspaceEngine } from '../workspaceEngine';
import { AUTHORING_COMMANDS } from './authoringCodeLens';
import { authoringKindOfDocument } from './authoringDocuments';
import type { AuthoringEnvironmentSource } from './authoringEnvironmentSource';
import type { DryRunDocuments } from './dryRunDocuments';
import type { LiveDiagnostics } from './liveDiagnostics';

export interface AuthoringCommandDeps {
  engine: WorkspaceEngine;
  environment: AuthoringEnvironmentSource;
  diagnostics: LiveDiagnostics;
  dryRuns: DryRunDocuments;
  view: Pick<CodeWikiViewProvider, 'reveal' | 'post'>;
  maxInputTokens(): number;
}

/**
 * The CodeLens commands. Each takes the file's URI (the active editor's when invoked from the
 * palette) and returns what it found, so tests and other commands can use the result. Like the
 * other workspace commands they refuse, not just hide, in Restricted Mode.
 */
export function registerAuthoringCommands(deps: AuthoringCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(AUTHORING_COMMANDS.validate, (uri?: vscode.Uri) => validate(deps, uri)),
    vscode.commands.registerCommand(AUTHORING_COMMANDS.dryRun, (uri?: vscode.Uri, inputs?: Record<string, unknown>) => dryRun(deps, uri, inputs)),
    vscode.commands.registerCommand(AUTHORING_COMMANDS.run, (uri?: vscode.Uri) => run(deps, uri)),
  ];
}

/** Checks the file now, as `codewiki validate` would, and says how it went. Returns the problems as the CLI prints them. */
async function validate(deps: AuthoringCommandDeps, uri: vscode.Uri | undefined): Promise<string[] | undefined> {
  const document = await authoringDocument(uri);
  if (!document || !(await available(deps))) return undefined;
  const problems = await deps.diagnostics.refresh(document);
  const name = basename(document.uri.fsPath);
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (!problems.length) void vscode.window.showInformationMessage(`CodeWiki: ${name} is valid.`);
  else {
    const summary = `CodeWiki: ${name}: ${plural(errors, 'error')}, ${plural(problems.length - errors, 'warning')}.`;
    void (errors ? vscode.window.showErrorMessage(summary, 'Show Problems') : vscode.window.showWarningMessage(summary, 'Show Problems')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  }
  return problems.map(formatDiagnostic);
}

/** Opens a read-only preview of every prompt a run would send; returns its URI and how many prompts it holds. */
async function dryRun(
  deps: AuthoringCommandDeps,
  uri: vscode.Uri | undefined,
  given: Record<string, unknown> = {},
): Promise<{ uri: string; prompts: number; status: string } | undefined> {
  const document = await authoringDocument(uri, 'prompt');
  const state = document && (await available(deps));
  if (!document || !state) return undefined;
  const file = document.uri.fsPath;
  const id = promptIdOf(file);
  try {
    const prompt = state.catalog.compileText(document.getText(), file);
    const values = { ...given };
    for (const input of missingRequiredInputs(prompt, values)) {
      const value = await vscode.window.showInputBox({
        title: `Dry run of ${id}`,
        prompt: `${input.description ?? input.name} (${input.type})`,
        placeHolder: input.placeholder,
        ignoreFocusOut: true,
      });
      if (value === undefined) return undefined;
      values[input.name] = value;
    }
    const inputs = await resolveRunInputs(prompt, values, state.workspace);
    const preview = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `CodeWiki: dry run of ${id}…` }, () =>
      dryRunPreview(
        { registry: state.catalog.registry, models: state.models, prompts: state.catalog, options: { maxInputTokens: deps.maxInputTokens() } },
        prompt,
        inputs,
      ),
    );
    const previewUri = deps.dryRuns.show(id, preview.text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(previewUri), {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
    return { uri: previewUri.toString(), prompts: preview.prompts, status: preview.status };
  } catch (error) {
    if (error instanceof ActionPromptError) {
      await deps.diagnostics.refresh(document);
      void vscode.window.showErrorMessage(
        `CodeWiki: cannot dry-run ${basename(file)}: ${error.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)[0] ?? error.message}`,
      );
      return undefined;
    }
    throw error;
  }
}

/** Opens the prompt's form in the CodeWiki view; an unsaved file is saved first, since a run reads the file on disk. */
async function run(deps: AuthoringCommandDeps, uri: vscode.Uri | undefined): Promise<string | undefined> {
  const document = await authoringDocument(uri, 'prompt');
  if (!document || !(await available(deps))) return undefined;
  const errors = (await deps.diagnostics.refresh(document)).filter((p) => p.severity === 'error');
  if (errors.length) {
    void vscode.window.showErrorMessage(`CodeWiki: fix ${plural(errors.length, 'problem')} in ${basename(document.uri.fsPath)} before running it.`);
    return undefined;
  }
  if (document.isDirty) {
    await document.save();
    deps.engine.invalidate();
  }
  const { engine } = await deps.engine.get();
  const id = promptIdOf(document.uri.fsPath);
  const entry = engine?.catalog.entry(id);
  if (!entry?.prompt || entry.file !== document.uri.fsPath) {
    void vscode.window.showWarningMessage(
      `CodeWiki: ${basename(document.uri.fsPath)} is not the prompt "${id}" that CodeWiki loaded; run it with codewiki run on the command line.`,
    );
    return undefined;
  }
  await deps.view.reveal();
  deps.view.post({ type: 'ui/show', view: 'agent', promptId: id });
  return id;
}

async function available(deps: AuthoringCommandDeps) {
  const state = await deps.environment.state();
  if (!state.engine) void vscode.window.showWarningMessage(`CodeWiki: ${state.unavailable ?? 'action prompts are not available.'}`);
  return state.engine;
}

async function authoringDocument(uri: vscode.Uri | undefined, only?: 'prompt'): Promise<vscode.TextDocument | undefined> {
  const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  const kind = document && authoringKindOfDocument(document);
  if (!document || !kind || (only && kind !== only)) {
    void vscode.window.showWarningMessage(
      only
        ? 'CodeWiki: open an action prompt (in .codewiki/prompts/ or a codewiki.promptFolders folder) first.'
        : 'CodeWiki: open an action prompt or agent definition in .codewiki/ first.',
    );
    return undefined;
  }
  return document;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
