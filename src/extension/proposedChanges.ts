import * as vscode from 'vscode';
import type { ProposedChange } from '../core/session/conversationSession';

/**
 * In-memory documents for the `codewiki-proposed:` scheme: the file as an agent's write would leave
 * it, shown in VS Code's diff editor next to the file on disk. Nothing is written anywhere; the
 * documents are read-only and only the latest few are kept.
 */
export class ProposedChanges implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'codewiki-proposed';
  private static readonly kept = 20;
  private readonly contents = new Map<string, string>();
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(ProposedChanges.scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Opens the diff editor: the file as it is (empty for a new file) on the left, the proposal on the right. */
  async show(approvalId: string, change: ProposedChange): Promise<void> {
    const name = change.path.replace(/^\/+/, '');
    const proposed = this.remember(vscode.Uri.from({ scheme: ProposedChanges.scheme, path: `/${approvalId}/${name}` }), change.proposed);
    const current = change.absolutePath
      ? vscode.Uri.file(change.absolutePath)
      : this.remember(vscode.Uri.from({ scheme: ProposedChanges.scheme, path: `/${approvalId}/empty/${name}` }), '');
    await vscode.commands.executeCommand('vscode.diff', current, proposed, `${name} ↔ proposed change (CodeWiki)`, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }

  private remember(uri: vscode.Uri, content: string): vscode.Uri {
    this.contents.delete(uri.toString());
    this.contents.set(uri.toString(), content);
    while (this.contents.size > ProposedChanges.kept) this.contents.delete(this.contents.keys().next().value!);
    return uri;
  }
}
