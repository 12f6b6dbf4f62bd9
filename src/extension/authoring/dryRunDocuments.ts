import * as vscode from 'vscode';

/**
 * Read-only documents holding dry-run previews. A TextDocumentContentProvider's documents cannot
 * be edited or saved, which is what a preview of prompts that were never sent should be.
 */
export class DryRunDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'codewiki-dry-run';
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Stores a preview under a name derived from the prompt id; a new dry run of the same prompt replaces the old one. */
  show(promptId: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DryRunDocuments.scheme, path: `/${promptId} (dry run).txt` });
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'This dry run is no longer available: run it again from the CodeLens above the prompt.';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
