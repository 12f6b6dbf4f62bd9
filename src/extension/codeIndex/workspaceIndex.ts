import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CodeIndex, IndexStatus } from '../../core/codebaseIndex/codeIndexTypes';
import { liveCodeIndex } from '../../core/codebaseIndex/liveCodeIndex';
import { WorkerCodeIndex } from '../../core/codebaseIndex/worker/workerCodeIndex';
import { folderSpecs } from '../workspaceFolders';

/** Changes are gathered this long before the index re-reads them: a save, a branch switch or a formatter run comes in bursts. */
const REFRESH_DELAY_MS = 300;

export interface WorkspaceIndexOptions {
  /** `globalStorageUri`: the index is saved under it, outside the workspace. */
  storageDir: string;
  /** `codewiki.allowSecretFiles` (user settings only): the index obeys the same secret policy as the file tools. */
  allowSecretFiles(): string[];
  /** `codewiki.index.enabled`. */
  enabled(): boolean;
  log(line: string): void;
}

/**
 * The workspace's code index in the extension: one worker thread per window (parsing never runs on the
 * extension host's thread), started for the trusted folders of the window (every folder of a multi-root
 * workspace, as the engine has them), saved in the extension's storage, kept current
 * by a file watcher and rebuilt on demand. In Restricted Mode, or with no folder, there is none, as there
 * are no file tools.
 */
export class WorkspaceIndex implements vscode.Disposable {
  private index: WorkerCodeIndex | undefined;
  private roots: string[] | undefined;
  /** What the running index was started for (folders, names, secret policy): a restart for the same is no restart. */
  private startedFor: string | undefined;
  /** Engines asking for other folders than the index's, already logged. */
  private readonly loggedMisses = new Set<string>();
  private building: AbortController | undefined;
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly statusEmitter = new vscode.EventEmitter<IndexStatus | undefined>();
  /** The index's status as it changes; undefined when there is no index (Restricted Mode, no folder). */
  readonly onDidChangeStatus = this.statusEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.statusEmitter];

  constructor(private readonly options: WorkspaceIndexOptions) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    const changed = (uri: vscode.Uri) => this.fileChanged(uri);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart()),
    );
    this.restart();
  }

  /** The index for the engine's workspace folders (real paths, in order), or undefined when there is none for them. */
  private current(roots: readonly string[]): CodeIndex | undefined {
    if (!this.index) return undefined;
    if (this.roots?.join('\n') === roots.join('\n')) return this.index;
    // Answers then go without the index, silently for the user: the log says why.
    const miss = `${roots.join(', ')} | ${this.roots?.join(', ')}`;
    if (!this.loggedMisses.has(miss)) {
      this.loggedMisses.add(miss);
      this.options.log(`Code index: an engine asked for the folders ${roots.join(', ')}, the index holds ${this.roots?.join(', ')}`);
    }
    return undefined;
  }

  /** The index as an engine for these folders holds it: every call reaches the index running now (it restarts on its own). */
  forRoots(roots: readonly string[]): CodeIndex {
    return liveCodeIndex(
      () => this.current(roots),
      (listener) => {
        const subscription = this.onDidChangeStatus(listener);
        return () => subscription.dispose();
      },
      'the code index is off (codewiki.index.enabled) or not running for this folder',
    );
  }

  status(): IndexStatus | undefined {
    return this.index?.status();
  }

  /** Builds from nothing (CodeWiki: Rebuild Index). */
  async rebuild(): Promise<IndexStatus | undefined> {
    // A worker that failed (it crashed, or ran out of memory) cannot rebuild: a new one does.
    if (this.index?.status().state === 'failed') this.restart();
    if (!this.index) return undefined;
    return this.run((signal) => this.index!.rebuild({ signal }));
  }

  /** Stops a build in progress; what is indexed stays usable. */
  stop(): void {
    this.building?.abort();
  }

  /**
   * Starts the index for the current folders and trust (the allow-list of secret files may have changed too). When
   * they are what the running index was started for, it stays: VS Code sends folder and settings events at startup
   * that change nothing, and a new worker then would only make questions asked meanwhile wait for it (or, asked of the
   * old one as it stops, lose their definition cards).
   */
  restart(): void {
    const folders = folderSpecs();
    const wanted = folders.length && vscode.workspace.isTrusted && this.options.enabled();
    // Every folder, as the engine's workspace has them: one index for the window, its paths named as the tools name them.
    const roots = folders.map((folder) => ({ ...folder, path: realPath(folder.path) }));
    const allowSecrets = this.options.allowSecretFiles();
    const startedFor = wanted ? JSON.stringify({ roots, allowSecrets }) : undefined;
    if (startedFor && startedFor === this.startedFor && this.index && this.index.status().state !== 'failed') return;
    void this.index?.dispose();
    this.index = undefined;
    this.startedFor = startedFor;
    if (!wanted) {
      this.roots = undefined;
      this.statusEmitter.fire(undefined);
      return;
    }
    this.roots = roots.map((folder) => folder.path);
    const index = new WorkerCodeIndex({ roots, workspaceOptions: { allowSecrets }, storeDir: join(this.options.storageDir, 'index') });
    this.index = index;
    index.onStatus((status) => {
      if (this.index === index) this.statusEmitter.fire(status);
    });
    // The status bar shows the new index from now on, not the count of the one it replaces.
    this.statusEmitter.fire(index.status());
    void this.run((signal) => index.update({ signal }));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.building?.abort();
    void this.index?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  private async run(build: (signal: AbortSignal) => Promise<IndexStatus>): Promise<IndexStatus | undefined> {
    this.building?.abort();
    const controller = new AbortController();
    this.building = controller;
    try {
      const status = await build(controller.signal);
      for (const warning of status.warnings ?? []) this.options.log(`Code index: ${warning}`);
      return status;
    } catch (error) {
      if (!controller.signal.aborted) this.options.log(`Code index: ${(error as Error).message}`);
      return undefined;
    } finally {
      if (this.building === controller) this.building = undefined;
    }
  }

  private fileChanged(uri: vscode.Uri): void {
    if (!this.index || uri.scheme !== 'file') return;
    this.pending.add(uri.fsPath);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const paths = [...this.pending];
      this.pending.clear();
      this.index?.refreshFiles(paths).catch((error: unknown) => this.options.log(`Code index: ${(error as Error).message}`));
    }, REFRESH_DELAY_MS);
  }
}

/** The engine's workspace names its root by real path; so does this, or a symlinked folder would never match. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
