import * as vscode from 'vscode';
import type { HostToWebview } from '../shared/protocol';
import { webviewHtml } from './webviewHtml';

/**
 * Requests for the UI are kept until the view is ready. Conversation updates are not: the view
 * asks for the whole conversation (state/init) when it becomes ready, which supersedes them.
 */
const QUEUED_WHILE_HIDDEN = new Set<HostToWebview['type']>(['error/show', 'ui/show', 'context/add']);

/**
 * Hosts the sidebar chat. It only moves messages: posts queue until the webview says it is
 * ready (a hidden view's messages would otherwise be lost), and incoming messages go to the
 * router, which validates them. Conversations live in the host, so a reloaded or re-shown view
 * asks for its state again rather than keeping it.
 */
export class CodeWikiViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'codewiki.chat';
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly pending: HostToWebview[] = [];
  /** Listeners of the current view; a view that is disposed and resolved again gets fresh ones. */
  private viewListeners: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (message: unknown) => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    this.view = view;
    this.ready = false;
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [webviewRoot] };
    view.webview.html = webviewHtml(view.webview, webviewRoot);
    this.disposeViewListeners();
    this.viewListeners = [
      view.webview.onDidReceiveMessage((message: unknown) => {
        if ((message as { type?: unknown })?.type === 'webview/ready') this.markReady();
        this.onMessage(message);
      }),
      view.onDidDispose(() => {
        this.view = undefined;
        this.ready = false;
        this.disposeViewListeners();
      }),
    ];
  }

  post(message: HostToWebview): void {
    if (this.view && this.ready) void this.view.webview.postMessage(message);
    else if (QUEUED_WHILE_HIDDEN.has(message.type)) this.pending.push(message);
  }

  /** Brings the sidebar into view, e.g. for a command run from the palette. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CodeWikiViewProvider.viewId}.focus`);
  }

  dispose(): void {
    this.disposeViewListeners();
  }

  private disposeViewListeners(): void {
    this.viewListeners.forEach((d) => d.dispose());
    this.viewListeners = [];
  }

  private markReady(): void {
    this.ready = true;
    const queued = this.pending.splice(0);
    setTimeout(() => queued.forEach((m) => this.post(m)), 0);
  }
}
