import * as vscode from 'vscode';
import { authoringKindOfDocument } from './authoringDocuments';

export const AUTHORING_COMMANDS = {
  run: 'codewiki.authoring.run',
  dryRun: 'codewiki.authoring.dryRun',
  validate: 'codewiki.authoring.validate',
} as const;

/** "▶ Run | Dry run | Validate" above an action prompt; "Validate" above an agent definition (it runs only inside agent mode). */
export class AuthoringCodeLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const kind = authoringKindOfDocument(document);
    if (!kind) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lens = (title: string, command: string, tooltip: string) => new vscode.CodeLens(top, { title, command, tooltip, arguments: [document.uri] });
    const validate = lens('Validate', AUTHORING_COMMANDS.validate, 'Check this file as codewiki validate does');
    if (kind === 'agent') return [validate];
    return [
      lens('▶ Run', AUTHORING_COMMANDS.run, "Open this prompt's form in the CodeWiki view"),
      lens('Dry run', AUTHORING_COMMANDS.dryRun, 'Show every prompt a run would send, nested prompts included, without calling a model'),
      validate,
    ];
  }
}
