import * as vscode from 'vscode';
import type { ToolTesterService } from '../../core/toolTester/toolTesterService';
import { type HostToTester, type TesterToHost, testerToHostSchema } from '../../shared/toolTesterProtocol';
import { userObjectSetting, writeUserSetting } from '../extensionSettings';
import { webviewHtml } from '../webviewHtml';

/**
 * CodeWiki: Tool Tester, an editor panel (one per window). It only moves messages: the page's are
 * validated against the tester protocol, the answers come from ToolTesterService in the core, and
 * the settings it changes are written to the user settings, like the chat view's.
 */
export class ToolTesterPanel implements vscode.Disposable {
  static readonly viewType = 'codewiki.toolTester';
  private panel: vscode.WebviewPanel | undefined;
  private listeners: vscode.Disposable[] = [];
  /** A manual run and the probe can go on side by side; Cancel or closing the panel stops both. */
  private readonly running = { run: undefined as AbortController | undefined, probe: undefined as AbortController | undefined };

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: ToolTesterService,
    private readonly log: (line: string) => void,
  ) {}

  show(): void {
    if (this.panel) return this.panel.reveal();
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(ToolTesterPanel.viewType, 'CodeWiki: Tool Tester', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [webviewRoot],
    });
    panel.webview.html = webviewHtml(panel.webview, webviewRoot, 'tester.js', 'CodeWiki: Tool Tester');
    this.panel = panel;
    this.listeners = [panel.webview.onDidReceiveMessage((message: unknown) => void this.handle(message)), panel.onDidDispose(() => this.closed())];
  }

  /** Settings, tools or the model changed: the page shows the new state (the previews follow the toggles live). */
  async refresh(): Promise<void> {
    if (this.panel) this.post({ type: 'tester/state', state: await this.service.state() });
  }

  dispose(): void {
    this.panel?.dispose();
    this.closed();
  }

  private closed(): void {
    this.cancelAll();
    this.listeners.forEach((listener) => listener.dispose());
    this.listeners = [];
    this.panel = undefined;
  }

  private post(message: HostToTester): void {
    void this.panel?.webview.postMessage(message);
  }

  private async handle(raw: unknown): Promise<void> {
    const parsed = testerToHostSchema.safeParse(raw);
    if (!parsed.success) return this.log(`Tool Tester: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`);
    const message = parsed.data;
    try {
      await this.route(message);
    } catch (error) {
      const requestId = 'requestId' in message ? message.requestId : undefined;
      if (message.type === 'tester/probe') return this.post({ type: 'tester/probe', status: 'done', error: (error as Error).message });
      this.post({ type: 'tester/error', requestId, message: (error as Error).message });
    }
  }

  private async route(message: TesterToHost): Promise<void> {
    switch (message.type) {
      case 'tester/ready':
        return this.refresh();
      case 'tester/toggle': {
        if (!(await this.service.isAgentCallable(message.name))) throw new Error(`${message.name} is not a tool the agent can use.`);
        // The configuration listener refreshes the page once the setting is written.
        return writeUserSetting('tools.toggles', { ...userObjectSetting('tools.toggles'), [message.name]: message.enabled });
      }
      case 'tester/setProtocol':
        return writeUserSetting('agent.toolProtocol', message.protocol);
      case 'tester/parse':
        return this.post({ type: 'tester/parsed', requestId: message.requestId, parse: await this.service.parse(message.text) });
      case 'tester/run':
        return this.post({
          type: 'tester/ran',
          requestId: message.requestId,
          run: await this.cancellable('run', (signal) => this.service.run(message.text, message.index, signal)),
        });
      case 'tester/probe':
        this.post({ type: 'tester/probe', status: 'running' });
        return this.post({ type: 'tester/probe', status: 'done', probe: await this.cancellable('probe', (signal) => this.service.probe(signal)) });
      case 'tester/cancel':
        return this.cancelAll();
    }
  }

  private async cancellable<T>(kind: 'run' | 'probe', work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.running[kind]?.abort();
    const controller = (this.running[kind] = new AbortController());
    try {
      return await work(controller.signal);
    } finally {
      if (this.running[kind] === controller) this.running[kind] = undefined;
    }
  }

  private cancelAll(): void {
    this.running.run?.abort();
    this.running.probe?.abort();
  }
}
