import { basename, dirname, isAbsolute, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { realpath, rm, stat } from 'node:fs/promises';
import { throwIfAborted } from '../util/abort';
import { isWalkedFile } from '../workspace/walkWorkspace';
import { relativeInside, type Workspace } from '../workspace/workspace';
import type {
  CodeIndex,
  CodeSearchHit,
  CodeStructure,
  CodeSearchOptions,
  IndexStatus,
  QuestionContext,
  QuestionContextOptions,
  RepoMap,
  RepoMapOptions,
  SymbolMatch,
} from './codeIndexTypes';
import { DEFAULT_MAX_INDEXED_BYTES } from './build/readIndexable';
import { indexFile, updateContents } from './build/indexBuilder';
import { isNotIndexed } from './build/notIndexed';
import { IndexContents } from './indexContents';
import { QuestionReadiness } from './questionReadiness';
import { bestLinesOf, termWeights } from './search/bestLines';
import { codeStructure } from './search/codeStructure';
import { fileTextReader } from './search/fileTexts';
import { isTestPath } from './search/fileRoles';
import { DEFAULT_QUESTION_BUDGET, QUESTION_CANDIDATES, questionContext } from './search/questionContext';
import { withoutContractions } from './search/questionTerms';
import { rankFiles } from './search/rankFiles';
import { buildRepoMap } from './search/repoMap';
import { grammarFailures } from './parsing/treeSitterRuntime';
import { loadSnapshot, saveSnapshot } from './store/indexSnapshot';
import { indexedFolders, snapshotFile } from './store/indexLocation';

export interface CodebaseIndexOptions {
  workspace: Workspace;
  /** Folder for the saved index (outside the workspace); without it the index lives in memory only. */
  storeDir?: string;
  /** Larger files are listed but not read. Default 1 MiB. */
  maxFileBytes?: number;
  /** How long after a file change the saved index is rewritten (about a second of the worker's time for 5,000 files). Default 5 s. */
  saveDelayMs?: number;
  /** Least time between two progress reports while building. Default 100 ms; tests that watch every step set 0. */
  progressIntervalMs?: number;
}

const DEFAULT_SEARCH_LIMIT = 10;
const PROGRESS_INTERVAL_MS = 100;
const GRAPH_DELAY_MS = 500;

/**
 * The codebase index in this thread: loads the saved index, brings it up to date with the workspace,
 * answers searches (also while it builds, from what is indexed so far) and keeps itself current as
 * files change. The extension runs it in a worker (WorkerCodeIndex); the CLI and tests run it here.
 */
export class CodebaseIndex implements CodeIndex {
  private contents = new IndexContents();
  private current: IndexStatus = { state: 'idle', indexedFiles: 0, totalFiles: 0, symbols: 0 };
  private readonly listeners = new Set<(status: IndexStatus) => void>();
  private loading: Promise<void> | undefined;
  private building: Promise<IndexStatus> | undefined;
  private disposed = false;
  private readonly readiness = new QuestionReadiness({
    contents: () => this.contents,
    stopped: () => this.disposed,
    readyWithFiles: () => this.current.state === 'ready' && this.contents.fileCount > 0,
    ask: (question) => this.questionContext(question),
  });
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private graphTimer: ReturnType<typeof setTimeout> | undefined;
  private lastProgress = 0;
  private readonly warnings: string[] = [];
  private readonly file: string | undefined;
  private readonly maxFileBytes: number;

  constructor(private readonly options: CodebaseIndexOptions) {
    this.file = options.storeDir ? snapshotFile(options.storeDir, indexedFolders(options.workspace)) : undefined;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_INDEXED_BYTES;
  }

  status(): IndexStatus {
    const grammars = [...grammarFailures].map(
      ([grammar, why]) => `Definitions in ${grammar} files come from a regex outline: its tree-sitter grammar did not load (${why}).`,
    );
    const warnings = [...this.warnings, ...grammars];
    return { ...this.current, warnings: warnings.length ? warnings : undefined };
  }

  onStatus(listener: (status: IndexStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  update(options: { signal?: AbortSignal } = {}): Promise<IndexStatus> {
    this.building ??= this.build(options.signal).finally(() => (this.building = undefined));
    return this.building;
  }

  async rebuild(options: { signal?: AbortSignal } = {}): Promise<IndexStatus> {
    await this.building?.catch(() => undefined);
    this.contents = new IndexContents();
    this.loading = Promise.resolve();
    if (this.file) await rm(this.file, { force: true });
    return this.update(options);
  }

  async refreshFiles(absolutePaths: string[]): Promise<void> {
    await this.ensureLoaded();
    const { workspace } = this.options;
    for (const given of absolutePaths) {
      const located = await this.locate(given);
      if (!located) continue;
      const path = workspace.displayPath(located);
      if (!isNotIndexed(located.relative) && (await isWalkedFile(workspace, located)))
        await indexFile(this.contents, located.absolute, path, this.maxFileBytes);
      else this.contents.remove(path);
    }
    this.publish({ ...this.current, indexedFiles: this.contents.fileCount, symbols: this.contents.symbolCount });
    this.scheduleGraph();
    this.scheduleSave();
  }

  async findSymbol(name: string, options: { limit?: number } = {}): Promise<SymbolMatch[]> {
    await this.ensureLoaded();
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const found: Array<SymbolMatch & { rank: number }> = [];
    for (const [index, match] of this.contents.symbols.lookup(name.trim(), limit).entries()) {
      // Names spelled alike (`ClientIP`, `clientIp`) rank alike: by path below, not by the order they were indexed in.
      const rank = match.match === 'exact' || match.match === 'case' ? 0 : index;
      for (const ref of match.refs) {
        const facts = this.contents.byId(ref.file);
        const symbol = facts?.symbols[ref.index];
        if (facts && symbol) found.push({ ...symbol, path: facts.path, match: match.match, rank });
      }
    }
    // The lookup's best names first; of one name, code before tests, and a body before its declarations (a C prototype).
    return found
      .sort(
        (a, b) =>
          a.rank - b.rank ||
          Number(isTestPath(a.path)) - Number(isTestPath(b.path)) ||
          Number(a.declaration === true) - Number(b.declaration === true) ||
          a.path.localeCompare(b.path) ||
          a.line - b.line,
      )
      .slice(0, limit)
      .map(({ rank: _rank, ...match }) => match);
  }

  async searchCode(query: string, options: CodeSearchOptions = {}): Promise<CodeSearchHit[]> {
    await this.ensureLoaded();
    const readText = fileTextReader((path) => this.readablePath(path));
    const ranked = rankFiles(this.contents, query, {
      limit: options.limit ?? DEFAULT_SEARCH_LIMIT,
      useGraph: options.useGraph ?? true,
      useExactNames: options.useExactNames,
      pathPrefix: options.pathPrefix,
      readText: options.useProximity === false ? undefined : readText,
    });
    const withLines = options.withLines ?? true;
    // The code's words for the question's plain ones weigh in the lines as they were searched, a little less than the
    // question's own: of two lines, one with the code's word and one with the question's, as rare, the second leads.
    const codeWords = this.contents.text.codeWordsSearched(withoutContractions(query));
    const idf = this.contents.text.idf(new Set(ranked.flatMap((file) => file.terms)));
    const weights = termWeights(new Map([...idf].map(([stem, value]) => [stem, value * (codeWords.get(stem) ?? 1)])));
    return ranked.map((file) => {
      const facts = this.contents.byId(file.id)!;
      return bestLinesOf(file, facts, withLines ? readText(facts.path) : undefined, withLines, weights);
    });
  }

  async repoMap(options: RepoMapOptions): Promise<RepoMap> {
    await this.ensureLoaded();
    return buildRepoMap(this.contents, options.budgetTokens, options.focus);
  }

  async questionContext(question: string, options: QuestionContextOptions = {}): Promise<QuestionContext> {
    const ranked = await this.searchCode(question, { limit: QUESTION_CANDIDATES });
    const context: QuestionContext = questionContext(this.contents, question, ranked, {
      budgetTokens: options.budgetTokens ?? DEFAULT_QUESTION_BUDGET,
      detail: options.detail ?? 'full',
    });
    if (this.current.state === 'building') context.partial = { indexedFiles: this.current.indexedFiles, totalFiles: this.current.totalFiles };
    return context;
  }

  async structure(): Promise<CodeStructure> {
    await this.ensureLoaded();
    if (this.contents.graphNeedsRefresh) this.contents.refreshGraph();
    return codeStructure(this.contents);
  }

  /** Readies the index for questions in idle time (questionReadiness.ts): the extension's worker calls it after each build; the CLI's one-question runs do not. */
  async prepareForQuestions(): Promise<void> {
    await this.ensureLoaded();
    return this.readiness.prepare();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.graphTimer) clearTimeout(this.graphTimer);
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      await this.save();
    }
    this.listeners.clear();
  }

  /** The saved index, read once; a first query before any build starts one, and answers from what is there. */
  private ensureLoaded(): Promise<void> {
    this.loading ??= this.load();
    return this.loading.then(() => {
      if (this.current.state === 'idle') void this.update().catch(() => undefined);
    });
  }

  private async load(): Promise<void> {
    if (!this.file) return;
    const loaded = await loadSnapshot(this.file, indexedFolders(this.options.workspace));
    if (loaded.kind === 'loaded') {
      try {
        this.contents = IndexContents.restore(loaded.contents);
      } catch (error) {
        this.warnings.push(`The saved code index could not be used: its search index is damaged (${(error as Error).message}). It is being rebuilt.`);
        return;
      }
      this.publish({ ...this.current, indexedFiles: this.contents.fileCount, symbols: this.contents.symbolCount });
    } else if (loaded.kind === 'unusable') {
      const kept = loaded.movedTo ? ` (kept as ${loaded.movedTo})` : '';
      this.warnings.push(`The saved code index could not be used: ${loaded.reason}${kept}. It is being rebuilt.`);
    }
  }

  private async build(signal: AbortSignal | undefined): Promise<IndexStatus> {
    const started = performance.now();
    try {
      await this.ensureLoadedOnly();
      throwIfAborted(signal);
      this.publish({ ...this.current, state: 'building', error: undefined });
      const result = await updateContents(this.options.workspace, this.contents, {
        signal,
        maxFileBytes: this.maxFileBytes,
        onProgress: ({ indexed, total }) => this.progress(indexed, total),
      });
      // Built now, before the build reports ready, so no query pays for it and the saved index carries it.
      if (this.contents.graphNeedsRefresh) this.contents.refreshGraph();
      const storedBytes = this.contents.dirty ? await this.save() : await this.storedSize();
      this.publish({
        state: 'ready',
        indexedFiles: this.contents.fileCount,
        totalFiles: result.total,
        symbols: this.contents.symbolCount,
        parsedFiles: result.parsed,
        durationMs: Math.round(performance.now() - started),
        storedBytes,
      });
    } catch (error) {
      const cancelled = signal?.aborted;
      this.publish({
        ...this.current,
        state: cancelled ? 'idle' : 'failed',
        error: cancelled ? undefined : (error as Error).message,
        indexedFiles: this.contents.fileCount,
        symbols: this.contents.symbolCount,
      });
      throw error;
    }
    return this.status();
  }

  private ensureLoadedOnly(): Promise<void> {
    return (this.loading ??= this.load());
  }

  private progress(indexed: number, total: number): void {
    const now = performance.now();
    if (now - this.lastProgress < (this.options.progressIntervalMs ?? PROGRESS_INTERVAL_MS) && indexed < total) return;
    this.lastProgress = now;
    this.publish({
      ...this.current,
      state: 'building',
      indexedFiles: Math.max(indexed, Math.min(this.contents.fileCount, total)),
      totalFiles: total,
      symbols: this.contents.symbolCount,
    });
  }

  private publish(status: IndexStatus): void {
    this.current = status;
    const snapshot = this.status();
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** The graph follows changes a moment later, in one rebuild for a burst of them; searches meanwhile use the last one. */
  private scheduleGraph(): void {
    if (this.graphTimer) clearTimeout(this.graphTimer);
    this.graphTimer = setTimeout(() => {
      this.graphTimer = undefined;
      if (this.contents.graphNeedsRefresh) this.contents.refreshGraph();
    }, GRAPH_DELAY_MS);
    this.graphTimer.unref?.();
  }

  private scheduleSave(): void {
    if (!this.file) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, this.options.saveDelayMs ?? 5_000);
    this.saveTimer.unref?.();
  }

  private async save(): Promise<number | undefined> {
    if (!this.file) return undefined;
    try {
      return await saveSnapshot(this.file, indexedFolders(this.options.workspace), this.contents.save());
    } catch (error) {
      this.warnings.push(`The code index could not be saved to ${this.file}: ${(error as Error).message}. It works, but is built again next time.`);
      return undefined;
    }
  }

  private async storedSize(): Promise<number | undefined> {
    return this.file
      ? stat(this.file).then(
          (s) => s.size,
          () => undefined,
        )
      : undefined;
  }

  /** Where a changed path is in the workspace; a deleted file is found through its folder's real path. */
  private async locate(given: string): Promise<{ absolute: string; relative: string; root: string } | undefined> {
    const { workspace } = this.options;
    const absolute = await realpath(given).catch(() =>
      realpath(dirname(given)).then(
        (folder) => join(folder, basename(given)),
        () => given,
      ),
    );
    const inside = workspace.locateReal(absolute);
    if (inside) return inside;
    for (const root of workspace.roots) {
      const relative = relativeInside(root, given);
      if (relative !== undefined && relative !== '.') return { absolute: given, relative, root };
    }
    return undefined;
  }

  /**
   * The real path of an indexed file for reading its text, or undefined when it may not be read: the index walked
   * it, but a symlink may since lead out of the workspace, or to a secret (the workspace's rules, as tools read).
   */
  private readablePath(path: string): string | undefined {
    const { workspace } = this.options;
    let real: string;
    try {
      real = realpathSync.native(this.absoluteOf(path)); // one system call, not one per folder of the path
    } catch {
      return undefined;
    }
    const inside = workspace.locateReal(real);
    return inside && !workspace.secrets.isDenied(inside.relative) ? real : undefined;
  }

  /** Where an indexed path (as `displayPath` wrote it: `lib/…` for the folder lib) is on disk. */
  private absoluteOf(path: string): string {
    try {
      return this.options.workspace.locateLexically(path).absolute;
    } catch {
      return isAbsolute(path) ? path : join(this.options.workspace.root, path);
    }
  }
}
