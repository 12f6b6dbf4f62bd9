import * as vscode from 'vscode';
import { locatedDiagnostics, type AuthoringEnvironment, type AuthoringKind, type LocatedDiagnostic } from '../../core/authoring';
import { authoringKindOfDocument } from './authoringDocuments';
import type { AuthoringEnvironmentSource } from './authoringEnvironmentSource';
import { toVscodeDiagnostic } from './vscodeDiagnostics';

const TYPING_PAUSE_MS = 300;

/**
 * Problems as you type: the loader runs on the editor's text (not the saved file) a moment after
 * typing stops, and its results replace that file's entries in the one CodeWiki collection the
 * workspace engine also publishes to. After the engine reloads (a file was saved), open files are
 * checked again so their unsaved text keeps the last word.
 */
export class LiveDiagnostics implements vscode.Disposable {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly collection: vscode.DiagnosticCollection,
    private readonly environment: AuthoringEnvironmentSource,
    onEngineChange: vscode.Event<void>,
  ) {
    this.disposables = [
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, TYPING_PAUSE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      onEngineChange(() => vscode.workspace.textDocuments.forEach((d) => this.schedule(d, 0))),
    ];
    vscode.workspace.textDocuments.forEach((d) => this.schedule(d, 0));
  }

  /** Checks a document now and publishes the result; also what the Validate command runs. */
  async refresh(document: vscode.TextDocument): Promise<LocatedDiagnostic[]> {
    const kind = authoringKindOfDocument(document);
    if (!kind) return [];
    const version = document.version;
    const env = await this.environment.get();
    if (document.isClosed || document.version !== version) return []; // a newer check is on its way
    if (!env) {
      this.collection.delete(document.uri);
      return [];
    }
    return this.publish(document.uri, document.getText(), kind, env);
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.disposables.forEach((d) => d.dispose());
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!authoringKindOfDocument(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.refresh(document);
      }, delayMs),
    );
  }

  /** Unsaved text that was closed away no longer counts: check what is on disk. */
  private closed(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const kind = authoringKindOfDocument(document);
    if (!kind || !document.isDirty) return;
    void (async () => {
      const env = await this.environment.get();
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri));
      if (env) this.publish(document.uri, text, kind, env);
    })().catch(() => this.collection.delete(document.uri));
  }

  private publish(uri: vscode.Uri, text: string, kind: AuthoringKind, env: AuthoringEnvironment): LocatedDiagnostic[] {
    const problems = locatedDiagnostics(text, uri.fsPath, kind, env);
    // Every problem lies on one line (see locatedDiagnostics), so its range needs no document.
    this.collection.set(
      uri,
      problems.map((p) => toVscodeDiagnostic(p, new vscode.Range(p.line - 1, p.column - 1, p.line - 1, p.column - 1 + (p.end - p.start)))),
    );
    return problems;
  }
}
