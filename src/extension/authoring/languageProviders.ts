import * as vscode from 'vscode';
import { completionsAt, definitionAt, hoverAt, quickFixesFor, type AuthoringCompletion } from '../../core/authoring';
import type { Diagnostic } from '../../core/yaml/diagnostics';
import { authoringKindOfDocument, rangeOf } from './authoringDocuments';
import type { AuthoringEnvironmentSource } from './authoringEnvironmentSource';
import { CODEWIKI_DIAGNOSTIC_SOURCE } from './vscodeDiagnostics';

const COMPLETION_KINDS: Record<AuthoringCompletion['kind'], vscode.CompletionItemKind> = {
  field: vscode.CompletionItemKind.Property,
  tool: vscode.CompletionItemKind.Function,
  prompt: vscode.CompletionItemKind.Module,
  parameter: vscode.CompletionItemKind.Field,
  variable: vscode.CompletionItemKind.Variable,
  value: vscode.CompletionItemKind.EnumMember,
};

/** Completion: field names, tools, a tool's parameters under `input:`, `{variables}`, input types, prompt ids. */
export class AuthoringCompletionProvider implements vscode.CompletionItemProvider {
  static readonly triggerCharacters = ['{', ':', ' ', '-'];

  constructor(private readonly environment: AuthoringEnvironmentSource) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const kind = authoringKindOfDocument(document);
    if (!kind) return [];
    const env = await this.environment.get();
    return completionsAt(document.getText(), document.uri.fsPath, kind, document.offsetAt(position), env).map((c) => {
      const item = new vscode.CompletionItem(c.label, COMPLETION_KINDS[c.kind]);
      item.detail = c.detail;
      if (c.documentation) item.documentation = new vscode.MarkdownString(c.documentation);
      item.insertText = c.insertText;
      item.range = rangeOf(document, c);
      // Retrigger after a field or parameter name, so its value (a tool, a type…) is offered at once.
      if (c.insertText.endsWith(': ')) item.command = { title: 'Suggest', command: 'editor.action.triggerSuggest' };
      return item;
    });
  }
}

export class AuthoringHoverProvider implements vscode.HoverProvider {
  constructor(private readonly environment: AuthoringEnvironmentSource) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const kind = authoringKindOfDocument(document);
    if (!kind) return undefined;
    const hover = hoverAt(document.getText(), document.uri.fsPath, kind, document.offsetAt(position), await this.environment.get());
    return hover && new vscode.Hover(new vscode.MarkdownString(hover.markdown), rangeOf(document, hover));
  }
}

export class AuthoringDefinitionProvider implements vscode.DefinitionProvider {
  provideDefinition(document: vscode.TextDocument, position: vscode.Position): vscode.Location | undefined {
    const kind = authoringKindOfDocument(document);
    const span = kind && definitionAt(document.getText(), document.uri.fsPath, kind, document.offsetAt(position));
    return span ? new vscode.Location(document.uri, rangeOf(document, span)) : undefined;
  }
}

/** Quick fixes for the loader's problems: the nearest tool name, a declaration for an undeclared variable. */
export class AuthoringCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly environment: AuthoringEnvironmentSource) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const kind = authoringKindOfDocument(document);
    const ours = context.diagnostics.filter((d) => d.source === CODEWIKI_DIAGNOSTIC_SOURCE);
    if (!kind || !ours.length) return [];
    const env = await this.environment.get();
    const text = document.getText();
    return ours.flatMap((diagnostic) =>
      quickFixesFor(text, document.uri.fsPath, kind, toCoreDiagnostic(document, diagnostic), env).map((fix) => {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred;
        action.edit = new vscode.WorkspaceEdit();
        for (const edit of fix.edits) action.edit.replace(document.uri, rangeOf(document, edit), edit.newText);
        return action;
      }),
    );
  }
}

/** The core diagnostic a VS Code one was made from: the field travels in `code`, the message after "field: ". */
function toCoreDiagnostic(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): Diagnostic {
  const field = typeof diagnostic.code === 'string' ? diagnostic.code : '';
  const message = field && diagnostic.message.startsWith(`${field}: `) ? diagnostic.message.slice(field.length + 2) : diagnostic.message;
  return {
    file: document.uri.fsPath,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    field,
    message,
    severity: diagnostic.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'error',
  };
}
