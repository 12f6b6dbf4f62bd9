import * as vscode from 'vscode';
import type { CodewikiEngine } from '../../core/codewikiEngine';
import type { RunResult } from '../../core/engine/executorTypes';
import { INDEX_PAGE } from '../../core/wiki/structure/pagePaths';
import { configuredWikiFolder } from './wikiFolderSetting';
import type { WikiPanel } from './wikiPanel';
import { WikiProgressTracker } from './wikiProgress';

/** Whether a model can write prose now, and if not, what the user can do about it (HostStatus's fields). */
export interface ModelAvailability {
  configured: boolean;
  problem?: string;
  /** The local model this machine could start, when nothing is configured. */
  localModel?: string;
}

export interface WikiGenerationDeps {
  panel: WikiPanel;
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  /** Resolves once the models are read (activation reads them asynchronously). */
  models(): Promise<ModelAvailability>;
  log(line: string): void;
}

/** The built-in prompt and the inputs that write the prose of every page that lacks it or is out of date. */
const WIKI_PROMPT = 'wiki';
const WIKI_INPUTS = { scope: 'stale', shard: '1/1' };

/**
 * CodeWiki: Generate Wiki. The structure first, from the code index with no model, so the pages show
 * in seconds; then, with a model, the `wiki` action prompt writes the overviews one page at a time,
 * with progress in the panel and in a notification. Stop in the panel and Cancel in the notification
 * abort the same run; whatever was written stays.
 */
export class WikiGeneration {
  private running: AbortController | undefined;

  constructor(private readonly deps: WikiGenerationDeps) {}

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  stop(): void {
    this.running?.abort();
  }

  /** Runs unless a run is going on already, in which case the panel is shown with its progress. */
  async generate(): Promise<void> {
    const { panel } = this.deps;
    if (this.running) return panel.show();
    const refusal = await whyNotHere();
    if (refusal) return void vscode.window.showWarningMessage(`CodeWiki: ${refusal}`);
    const controller = (this.running = new AbortController());
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'CodeWiki: generating the wiki', cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          await this.run(controller.signal, (message, increment) => progress.report({ message, increment }));
        },
      );
    } catch (error) {
      // Not the run's own failures (those end in a notice): a bug or a broken engine, said where the user looks.
      this.deps.log(`Wiki: ${(error as Error).stack ?? String(error)}`);
      panel.setNotice(`The wiki could not be generated: ${(error as Error).message}`);
    } finally {
      this.running = undefined;
      panel.setGenerating(null);
      await panel.refresh();
    }
  }

  private async run(signal: AbortSignal, report: (message: string, increment?: number) => void): Promise<void> {
    const { panel } = this.deps;
    const models = await this.deps.models();
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return void vscode.window.showWarningMessage(`CodeWiki: ${unavailable ?? 'no workspace to write a wiki for.'}`);
    panel.setNotice(undefined);
    panel.setGenerating({ done: 0, total: 0, label: 'Reading the code' });
    await panel.show(INDEX_PAGE);
    report('the pages’ structure from the code index');
    let structure: Awaited<ReturnType<CodewikiEngine['wiki']['updateStructure']>>;
    try {
      structure = await engine.wiki.updateStructure(signal);
    } catch (error) {
      return panel.setNotice(signal.aborted ? 'Stopped before the pages were written.' : `The wiki could not be built: ${(error as Error).message}`);
    }
    this.deps.log(`Wiki: ${structure.wiki.modules.length} modules; ${structure.written.length} of ${structure.pages} pages written to ${engine.wiki.wikiDir}`);
    const blocked = structure.plan.pages.filter((page) => page.foreign).map((page) => page.page);
    if (blocked.length) {
      this.deps.log(`Wiki: not written, a file CodeWiki did not write is at: ${blocked.join(', ')}`);
      void vscode.window.showWarningMessage(
        `CodeWiki: ${blocked.join(', ')} in the wiki folder ${blocked.length === 1 ? 'is a file' : 'are files'} CodeWiki did not write; ${blocked.length === 1 ? 'that page was' : 'those pages were'} not written. Move ${blocked.length === 1 ? 'it' : 'them'}, or set codewiki.wiki.folder.`,
      );
    }
    await panel.refresh();
    if (!models.configured) return panel.setNotice(noModelNotice(models));
    const prompt = engine.catalog.entry(WIKI_PROMPT)?.prompt;
    if (!prompt) return panel.setNotice(`The "${WIKI_PROMPT}" action prompt does not load (see the Problems panel), so no overview was written.`);
    const targets = engine.wiki.proseTargets(structure.plan, structure.wiki, 'stale');
    if (!targets.modules.length && !targets.overview) return panel.setNotice('Every overview is up to date with the code.');
    const tracker = new WikiProgressTracker(targets.modules, targets.overview);
    let reported = 0;
    const show = () => {
      const now = tracker.progress;
      panel.setGenerating(now);
      const percent = now.total ? Math.round((100 * now.done) / now.total) : 0;
      report(`${now.label} (${now.done}/${now.total})`, Math.max(0, percent - reported));
      reported = Math.max(reported, percent);
    };
    show();
    const result = await engine.executor.run(prompt, WIKI_INPUTS, { signal, onEvent: (event) => tracker.update(event) && show() });
    this.deps.log(`Wiki: the "${WIKI_PROMPT}" prompt ended ${result.status}${result.log.error ? `: ${result.log.error}` : ''}`);
    panel.setNotice(outcomeNotice(result, tracker.problems));
  }
}

/** Restricted Mode refuses (security.md #1: a command refuses, not just hides), and so does a wiki folder outside the workspace. */
export async function whyNotHere(): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) return 'trust this workspace to build its wiki: that reads its code and writes pages into it.';
  const folder = await configuredWikiFolder();
  if (!folder) return 'open a folder to build its wiki.';
  return folder.problem;
}

function noModelNotice(models: ModelAvailability): string {
  const start = 'The pages show the code’s structure. The overviews need a model';
  if (models.problem) return `${start}: ${models.problem}`;
  const how = models.localModel
    ? `run CodeWiki: Start Local Model (${models.localModel}, on this machine), or set CodeWiki › Base Url and CodeWiki › Model in the settings`
    : 'set CodeWiki › Base Url and CodeWiki › Model in the settings, or run CodeWiki: Start Local Model';
  return `${start}: ${how}, then Generate again.`;
}

function outcomeNotice(result: RunResult, problems: string[]): string | undefined {
  if (result.status === 'cancelled') return 'Stopped. The overviews written so far are kept; Generate writes the rest.';
  if (result.status === 'failed') return `The overviews could not be written: ${result.log.error ?? 'the run failed'}`;
  return problems.length ? `Some overviews could not be written: ${problems[0]}` : undefined;
}
