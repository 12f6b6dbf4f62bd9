import * as vscode from 'vscode';
import { acquireLocalModel, reuseLocalModel, type LocalModel } from '../../core/localModel/acquireLocalModel';
import { codewikiCacheDir } from '../../core/localModel/localModelFiles';
import { pinnedModelName, readPinnedModels } from '../../core/localModel/modelManifest';
import type { CodewikiSettings } from '../extensionSettings';
import { CODEWIKI_SETTINGS_QUERY } from '../hostMessageRouter';
import { localModelRefused, readLocalModelSettings } from './localModelSettings';

/** A closed window's server stays this long, so a window reload finds it running instead of starting it again. */
const RELOAD_GRACE_MS = 30_000;

export interface RunningLocalModel {
  url: string;
  model: string;
}

/**
 * This window's share of the machine's local model (src/core/localModel/): with no endpoint configured it
 * reuses a server another window or the CLI runs, starts one when `codewiki.localModel.autoStart` is on or
 * the user accepts the offer, and lets go of it with the extension (the server stops once no window or
 * recent CLI call holds it). The server is the one scripts/vscode/start.sh and `codewiki ask` use.
 */
export class ExtensionLocalModel implements vscode.Disposable {
  private local: LocalModel | undefined;
  private starting: Promise<boolean> | undefined;
  private suggested = false;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The model started, was found running, or was let go: the endpoint changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly serveScript: string,
    private readonly output: vscode.OutputChannel,
  ) {}

  private log(line: string): void {
    this.output.appendLine(line);
  }

  get running(): RunningLocalModel | undefined {
    return this.local && { url: this.local.url, model: this.local.model };
  }

  get isStarting(): boolean {
    return this.starting !== undefined;
  }

  /**
   * The settings the models are built from: with nothing configured (no endpoint, no model, provider
   * `openai`), this window's local model fills in the endpoint, or is suggested (once) when it holds none;
   * with an endpoint or VS Code's models configured, the local model is let go.
   */
  follow(settings: CodewikiSettings): CodewikiSettings {
    if (settings.provider !== 'openai' || settings.baseUrl || settings.model) {
      this.release();
      return settings;
    }
    if (!this.local) {
      // CODEWIKI_LOCAL_MODEL=off (start.sh's and the CLI's switch): no offer; the command still starts it.
      if (!localModelRefused()) void this.suggest();
      return settings;
    }
    return { ...settings, baseUrl: this.local.url, model: this.local.model, localServer: 'llama.cpp' };
  }

  /**
   * What the chat view shows of it (HostStatus): while it starts, that no model can answer yet and where the
   * progress is; with nothing configured and none running, its name, so the setup offers to start it.
   */
  status(settings: CodewikiSettings): { problem?: string; localModel?: string } {
    if (this.starting)
      return {
        problem: `The local model (${this.safeModelName()} on llama.cpp) is starting: the notification shows its progress. A first start builds llama.cpp and downloads the weights (about 15 minutes, once); later starts take seconds.`,
      };
    const nothingConfigured = settings.provider === 'openai' && !settings.baseUrl && !settings.model;
    return nothingConfigured && !this.local && !localModelRefused() ? { localModel: this.safeModelName() } : {};
  }

  /** A name for the user's eyes even when the setting names no pinned model (starting then says why). */
  private safeModelName(): string {
    try {
      return this.modelName();
    } catch {
      return readLocalModelSettings().model ?? 'the default model';
    }
  }

  /** The model the settings ask for (or the pinned default), for the offer's words. */
  modelName(): string {
    return pinnedModelName(readPinnedModels(this.serveScript), readLocalModelSettings().model);
  }

  /**
   * Called when nothing is configured; acts once per window. A server already running is used at once
   * (it costs nothing); otherwise it starts on its own only with autoStart, because a first start builds
   * llama.cpp for about ten minutes on every core and downloads a gigabyte.
   */
  async suggest(): Promise<void> {
    if (this.suggested || this.local || this.starting) return;
    this.suggested = true;
    const settings = readLocalModelSettings();
    try {
      const found = await reuseLocalModel({ serveScript: this.serveScript, cacheDir: codewikiCacheDir(process.env), model: settings.model });
      if (found) return this.adopt(found);
    } catch (error) {
      this.log(`Local model: ${(error as Error).message}`);
      return;
    }
    if (settings.autoStart) return void (await this.start());
    await this.offer();
  }

  /** The notification: start now, always start, or open the settings to configure an endpoint instead. */
  private async offer(): Promise<void> {
    const name = this.safeModelName();
    const choice = await vscode.window.showInformationMessage(
      `CodeWiki has no model configured. Start the local model (${name} on llama.cpp, on this machine)? The first start builds llama.cpp and downloads the weights into ~/.cache/codewiki (about 15 minutes, once); later starts take seconds.`,
      'Start Local Model',
      'Always Start It',
      'Settings',
    );
    if (choice === 'Always Start It')
      await vscode.workspace.getConfiguration('codewiki').update('localModel.autoStart', true, vscode.ConfigurationTarget.Global);
    if (choice === 'Start Local Model' || choice === 'Always Start It') await this.start();
    if (choice === 'Settings') await vscode.commands.executeCommand('workbench.action.openSettings', CODEWIKI_SETTINGS_QUERY);
  }

  /** Starts (or reuses) it with a cancellable progress notification; true once it answers. */
  start(): Promise<boolean> {
    if (this.local) return Promise.resolve(true);
    this.starting ??= this.startWithProgress().finally(() => {
      this.starting = undefined;
      this.changed.fire();
    });
    this.changed.fire();
    return this.starting;
  }

  private async startWithProgress(): Promise<boolean> {
    const settings = readLocalModelSettings();
    const title = 'CodeWiki: starting the local model';
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      try {
        const local = await acquireLocalModel({
          serveScript: this.serveScript,
          cacheDir: codewikiCacheDir(process.env),
          model: settings.model,
          signal: controller.signal,
          onProgress: (p) => {
            this.log(`[local-model] ${p.line}`);
            progress.report({ message: p.fraction === undefined ? p.message : `${p.message} ${Math.round(p.fraction * 100)}%` });
          },
        });
        this.adopt(local);
        return true;
      } catch (error) {
        if (controller.signal.aborted) {
          this.log('Local model: start cancelled.');
          return false;
        }
        const message = (error as Error).message;
        this.log(`Local model: ${message}`);
        void vscode.window.showErrorMessage(`CodeWiki: ${message.split('\n')[0]}`, 'Show Log').then((choice) => choice && this.output.show());
        return false;
      }
    });
  }

  private adopt(local: LocalModel): void {
    this.local = local;
    this.log(`Local model: ${local.model} (llama.cpp at ${local.url}; ${local.started ? 'started' : 'reused'}, pid ${local.pid}).`);
    this.changed.fire();
  }

  /** An endpoint was configured (or VS Code's models chosen): this window no longer needs the server. */
  release(): void {
    if (!this.local) return;
    this.local.lease.release();
    this.local = undefined;
    this.suggested = false;
    this.log('Local model: released (an endpoint or VS Code models are configured).');
    this.changed.fire();
  }

  dispose(): void {
    // Not released outright: a reload's new window finds the server still running.
    this.local?.lease.linger(Date.now() + RELOAD_GRACE_MS);
    this.changed.dispose();
  }
}
