import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { CodewikiEngine } from '../../core/codewikiEngine';
import { webviewHtml } from '../webviewHtml';
import { INDEX_PAGE } from '../../core/wiki/structure/pagePaths';
import { type HostToWiki, type WikiPageEntry, type WikiProgress, type WikiToHost, wikiToHostSchema } from '../../shared/wikiProtocol';
import { resolveWikiLink, wikiPageFile } from './wikiLinks';

const NO_WIKI_YET = 'No wiki yet: Generate builds it from the code (the structure in seconds, the overviews with a model).';

export interface WikiPanelDeps {
  /** The engine, or why there is none (Restricted Mode, no folder). */
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  /** The page's Generate and Stop buttons. */
  generate(): void;
  stop(): void;
  log(line: string): void;
}

/**
 * CodeWiki: Wiki, an editor panel (one per window) showing the pages of the wiki folder. The host owns
 * the state; the page shows it and reports clicks, which are validated and resolved here: a link to
 * another page shows it, a link into the workspace opens the file at its line, anything else is ignored.
 * The folder is watched, so pages written by a run (or by hand, or by `codewiki wiki`) show as they land.
 */
export class WikiPanel implements vscode.Disposable {
  static readonly viewType = 'codewiki.wiki';
  private panel: vscode.WebviewPanel | undefined;
  private listeners: vscode.Disposable[] = [];
  private watcher: { dir: string; disposable: vscode.Disposable } | undefined;
  private currentPath = INDEX_PAGE;
  private generating: WikiProgress | null = null;
  private notice: string | undefined;
  private pages: WikiPageEntry[] = [];
  private current: { path: string; markdown: string } | undefined;
  /** Refreshes overlap (a watcher event during a click); only the latest one's answer is posted. */
  private refreshes = 0;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: WikiPanelDeps,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Opens (or reveals) the panel, on `page` when given. */
  async show(page?: string): Promise<void> {
    if (page) this.currentPath = page;
    if (this.panel) {
      this.panel.reveal();
      return this.refresh();
    }
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(WikiPanel.viewType, 'CodeWiki: Wiki', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [webviewRoot],
    });
    panel.webview.html = webviewHtml(panel.webview, webviewRoot, 'wiki.js', 'CodeWiki: Wiki');
    this.panel = panel;
    // The page asks for its state (wiki/ready) once its script runs: that is when the first refresh is sent.
    this.listeners = [panel.webview.onDidReceiveMessage((message: unknown) => void this.handle(message)), panel.onDidDispose(() => this.closed())];
  }

  /** Progress of a run (null when none); the page shows a bar and Stop. */
  setGenerating(progress: WikiProgress | null): void {
    this.generating = progress;
    this.post();
  }

  /** One line above the page, e.g. how to get prose without a model; undefined clears it. */
  setNotice(notice: string | undefined): void {
    this.notice = notice;
    this.post();
  }

  /** Reads the page list and the page shown again, and sends them. */
  async refresh(): Promise<void> {
    if (!this.panel) return;
    const refresh = ++this.refreshes;
    const { engine, unavailable } = await this.deps.engine();
    if (refresh !== this.refreshes) return;
    if (!engine) {
      this.pages = [];
      this.current = undefined;
      return this.post(unavailable);
    }
    this.watch(engine.wiki.wikiDir);
    try {
      const pages = await engine.wiki.listPages();
      const path = pages.some((page) => page.path === this.currentPath) ? this.currentPath : (pages[0]?.path ?? INDEX_PAGE);
      const file = wikiPageFile(engine.wiki.wikiDir, path);
      const markdown = file && pages.some((page) => page.path === path) ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
      if (refresh !== this.refreshes) return;
      this.pages = pages;
      this.currentPath = path;
      this.current = markdown === undefined ? undefined : { path, markdown };
      this.post(pages.length || this.generating || this.notice ? undefined : NO_WIKI_YET);
    } catch (error) {
      if (refresh !== this.refreshes) return;
      this.deps.log(`Wiki: ${(error as Error).message}`);
      this.post(`The wiki could not be read: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.closed();
  }

  private closed(): void {
    this.listeners.forEach((listener) => listener.dispose());
    this.listeners = [];
    this.watcher?.disposable.dispose();
    this.watcher = undefined;
    clearTimeout(this.refreshTimer);
    this.panel = undefined;
  }

  /** Sends the whole state; `problem` (the wiki cannot be read) replaces the notice for this state only. */
  private post(problem?: string): void {
    const notice = problem ?? this.notice;
    const current = this.current;
    const message: HostToWiki = {
      type: 'wiki/state',
      pages: this.pages,
      ...(current ? { current } : {}),
      generating: this.generating,
      ...(notice ? { notice } : {}),
    };
    void this.panel?.webview.postMessage(message);
  }

  /** Pages written by a run, by hand or by the CLI show up without a click; the watcher follows the folder setting. */
  private watch(dir: string): void {
    if (this.watcher?.dir === dir) return;
    this.watcher?.disposable.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dir), '**/*.md'));
    // A run writes a page and the manifest in quick succession: one refresh for the burst.
    const soon = () => {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => void this.refresh(), 200);
    };
    this.watcher = {
      dir,
      disposable: vscode.Disposable.from(watcher, watcher.onDidCreate(soon), watcher.onDidChange(soon), watcher.onDidDelete(soon)),
    };
  }

  private async handle(raw: unknown): Promise<void> {
    const parsed = wikiToHostSchema.safeParse(raw);
    if (!parsed.success) return this.deps.log(`Wiki: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`);
    try {
      await this.route(parsed.data);
    } catch (error) {
      this.deps.log(`Wiki: ${(error as Error).message}`);
    }
  }

  private async route(message: WikiToHost): Promise<void> {
    switch (message.type) {
      case 'wiki/ready':
        return this.refresh();
      case 'wiki/showPage':
        return this.showListedPage(message.path);
      case 'wiki/openLink':
        return this.openLink(message.page, message.href);
      case 'wiki/generate':
        return this.deps.generate();
      case 'wiki/stop':
        return this.deps.stop();
    }
  }

  /** Only a page of the list: the path came from the page, so it is never read unless the host listed it. */
  private async showListedPage(path: string): Promise<void> {
    if (!this.pages.some((page) => page.path === path)) return this.deps.log(`Wiki: ignored a request for "${path}", which is not a page of the wiki`);
    this.currentPath = path;
    return this.refresh();
  }

  private async openLink(page: string, href: string): Promise<void> {
    const { engine } = await this.deps.engine();
    if (!engine) return;
    const target = await resolveWikiLink({ page, href }, engine.wiki.wikiDir, engine.workspace);
    if (!target) return this.deps.log(`Wiki: ignored the link "${href}" (not a page of the wiki or a file of the workspace)`);
    if (target.kind === 'page') return this.showListedPage(target.path);
    const uri = vscode.Uri.file(target.absolute);
    // A fixed command with a checked path; nothing in a message ever names a command.
    if (target.directory) return void (await vscode.commands.executeCommand('revealInExplorer', uri));
    const lines = target.lines;
    // `#L12` puts the cursor on line 12; `#L12-L20` selects the lines whole.
    const selection = lines && new vscode.Range(lines.start - 1, 0, lines.end > lines.start ? lines.end : lines.start - 1, 0);
    // Beside the wiki, so the page stays in view while the code is read.
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: true, ...(selection ? { selection } : {}) });
  }
}
