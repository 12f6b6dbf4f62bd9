import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CodeIndex, CodeStructure } from '../codebaseIndex/codeIndexTypes';
import { waitForIndex } from '../codebaseIndex/waitForIndex';
import { inertText } from './render/markdownText';
import { readLineRange } from '../workspace/readLineRange';
import type { Workspace } from '../workspace/workspace';
import { gitCommit } from './pages/gitCommit';
import { moduleOverviewFor } from './pages/moduleOverview';
import { modulePages, readPage } from './pages/pageFiles';
import { pageLinksFor } from './pages/pageLinksFor';
import { readPageParts, withProse } from './pages/pageSections';
import { writeFileAtomic } from '../util/atomicFile';
import { MANIFEST_FILE, writeManifest } from './pages/wikiManifest';
import { prepareWikiFolder } from './pages/wikiFolderGuard';
import { applyWikiPlan, FOREIGN_FILE, hasUserNotes, orphanPages, OVERVIEW_MODULE, planWikiPages, stalePages, type WikiPlan } from './pages/wikiPages';
import { checkClaims, type RemovedClaim } from './prose/claimCheck';
import { KnownNames } from './prose/knownNames';
import { linkNames, relinkNames } from './prose/linkNames';
import { firstSentence, moduleContext, overviewContext, type ProseContext } from './prose/proseContext';
import { safeProse } from './prose/safeProse';
import { withoutUnfinishedSentence } from './prose/unfinishedSentence';
import { buildWikiStructure } from './structure/buildWikiStructure';
import { INDEX_PAGE } from './structure/pagePaths';
import type { WikiModule, WikiStructure } from './wikiTypes';

export interface CodeWikiOptions {
  workspace: Workspace;
  codeIndex: CodeIndex;
  /** The wiki folder, absolute (see wikiLocation.ts). */
  wikiDir: string;
}

/** A page whose prose a model should write: a module's, or the front page's. */
export interface ProseTarget {
  page: string;
  module: string;
  title: string;
}

export interface SavedProse {
  page: string;
  /** Sentences the trust check removed because they named what does not exist. */
  removed: RemovedClaim[];
  written: boolean;
}

/**
 * The workspace's wiki: structure from the code index (no model), pages kept in a folder beside the
 * code, prose written by a workflow through `proseContext` and `saveProse`, and the check CI runs.
 */
export class CodeWiki {
  constructor(private readonly options: CodeWikiOptions) {}

  get wikiDir(): string {
    return this.options.wikiDir;
  }

  /** Whether the wiki was ever written here (its manifest is on disk). */
  exists(): boolean {
    return existsSync(join(this.wikiDir, MANIFEST_FILE));
  }

  /** Brings the index up to date, then reads the modules from it. */
  async structure(signal?: AbortSignal): Promise<{ wiki: WikiStructure; code: CodeStructure }> {
    await waitForIndex(this.options.codeIndex, { signal });
    const code = await this.options.codeIndex.structure();
    return { wiki: buildWikiStructure(code), code };
  }

  async plan(signal?: AbortSignal): Promise<{ plan: WikiPlan; wiki: WikiStructure; code: CodeStructure }> {
    const { wiki, code } = await this.structure(signal);
    const known = new KnownNames(code);
    const relink = (prose: string, page: string) => relinkNames(prose, known, pageLinksFor(this.options.workspace, this.wikiDir, page));
    const plan = await planWikiPages({ workspace: this.options.workspace, wikiDir: this.wikiDir, structure: wiki, title: this.title(), relink });
    return { plan, wiki, code };
  }

  /** Writes every page whose structure changed (keeping prose and notes); no model. */
  async updateStructure(signal?: AbortSignal): Promise<{ written: string[]; pages: number; wiki: WikiStructure; plan: WikiPlan }> {
    const { plan, wiki } = await this.plan(signal);
    const written = await applyWikiPlan(this.wikiDir, this.options.workspace.roots, plan);
    return { written, pages: plan.pages.length, wiki, plan };
  }

  /** Pages that are out of date: what `codewiki wiki --check` lists. */
  async check(signal?: AbortSignal): Promise<Array<{ page: string; reason: string }>> {
    return stalePages((await this.plan(signal)).plan);
  }

  /** Pages of modules that are gone, kept because their notes hold the user's text (said by `--check`, not stale). */
  async orphans(signal?: AbortSignal): Promise<string[]> {
    return orphanPages((await this.plan(signal)).plan);
  }

  /** Pages that need prose: without any, written for older contents, or every page with `all`. */
  proseTargets(plan: WikiPlan, wiki: WikiStructure, scope: 'stale' | 'all'): { modules: ProseTarget[]; overview: boolean } {
    const byPage = new Map(plan.pages.map((page) => [page.page, page]));
    const needs = (page: string) => {
      const planned = byPage.get(page);
      // A file of the user's at the page's path is never written over (stalePages says so).
      if (planned?.foreign) return false;
      return scope === 'all' || !planned?.hasProse || planned.proseStale;
    };
    const ranked = [...wiki.modules].sort((a, b) => b.rank - a.rank || a.id.localeCompare(b.id));
    const modules = ranked.filter((module) => needs(module.page)).map((module) => ({ page: module.page, module: module.id, title: module.id }));
    return { modules, overview: !byPage.get(INDEX_PAGE)?.foreign && (needs(INDEX_PAGE) || modules.length > 0) };
  }

  /** What the model is given to write a page's prose. */
  async proseContext(page: string): Promise<ProseContext> {
    const { wiki } = await this.structure();
    if (page === INDEX_PAGE) {
      const sentences = new Map<string, string>();
      for (const module of wiki.modules) {
        const text = await readPage(this.wikiDir, module.page);
        const sentence = firstSentence(text === undefined ? undefined : readPageParts(text).prose);
        if (sentence) sentences.set(module.id, sentence);
      }
      return overviewContext(wiki, sentences);
    }
    return moduleContext(this.moduleOfPage(wiki, page), this.options.workspace);
  }

  /** Checks the model's prose (every claim about a file, folder, definition or line), links its names and puts it on the page. */
  async saveProse(page: string, prose: string, model: string): Promise<SavedProse> {
    const { plan, wiki, code } = await this.plan();
    const planned = plan.pages.find((entry) => entry.page === page && !entry.orphan);
    if (!planned) throw new Error(`The wiki has no page "${page}"`);
    if (planned.foreign) throw new Error(`${join(this.wikiDir, page)}: ${FOREIGN_FILE}`);
    // The page on disk may still be another module's, with the user's notes, when the structure was not brought up to
    // date first (a shard of several writes prose only): writing over it would lose them.
    const onDisk = planned.current === undefined ? undefined : readPageParts(planned.current);
    if (onDisk?.meta && onDisk.meta.module !== planned.module && hasUserNotes(onDisk.notes))
      throw new Error(
        `${join(this.wikiDir, page)} holds the notes of the module "${onDisk.meta.module}": bring the structure up to date first (codewiki wiki --structure-only) so they move; nothing was written`,
      );
    const sources = page === INDEX_PAGE ? wiki.sources : this.moduleOfPage(wiki, page).sources;
    const known = new KnownNames(code);
    const { text, removed } = await checkClaims(withoutUnfinishedSentence(safeProse(prose)), known, (path) => this.lineCount(path));
    if (!text.trim()) return { page, removed, written: false };
    const commit = await gitCommit(this.options.workspace.root);
    const linked = linkNames(text, known, pageLinksFor(this.options.workspace, this.wikiDir, page));
    const body = `${linked}\n\n_Written by ${inertText(model)} for commit ${commit}._`;
    const meta = readPageParts(planned.text).meta!;
    // A shard's job may write this page into an empty folder (it writes no other page).
    await prepareWikiFolder(this.wikiDir, this.options.workspace.roots);
    await writeFileAtomic(join(this.wikiDir, page), withProse(planned.text, body, { ...meta, prose: { sources, model, commit, removed: removed.length } }));
    await writeManifest(this.wikiDir);
    return { page, removed, written: true };
  }

  /**
   * The page for a module id, a file or folder inside a module, or the front page: the page as written, or,
   * when the wiki was never generated, its structure rendered on the spot (no model needed).
   */
  async readPage(about?: string): Promise<{ page: string; text: string; generated: boolean } | undefined> {
    const { plan, wiki } = await this.plan();
    const page = about ? this.pageAbout(wiki, about) : INDEX_PAGE;
    if (!page) return undefined;
    const planned = plan.pages.find((entry) => entry.page === page)!;
    // A file of the user's at the page's path is not the page: the structure is drawn on the spot instead.
    const written = planned.foreign ? undefined : planned.current;
    return { page, text: written ?? planned.text, generated: written !== undefined };
  }

  /** Pages on disk, front page first, with their titles and whether they are stale. */
  async listPages(): Promise<Array<{ path: string; title: string; stale: boolean }>> {
    const { plan } = await this.plan();
    const stale = new Set(stalePages(plan).map((entry) => entry.page));
    const onDisk = new Set([INDEX_PAGE, ...(await modulePages(this.wikiDir))]);
    return plan.pages
      .filter((page) => onDisk.has(page.page) && page.current !== undefined && !page.foreign)
      .map((page) => ({ path: page.page, title: page.module === OVERVIEW_MODULE ? 'Overview' : page.module, stale: stale.has(page.page) }));
  }

  /** The overview of the module `path` belongs to, from the pages on disk (see moduleOverview.ts). */
  overviewFor(path: string): Promise<{ page: string; module: string; text: string } | undefined> {
    return moduleOverviewFor(this.wikiDir, path);
  }

  private pageAbout(wiki: WikiStructure, about: string): string | undefined {
    const clean = about.trim().replace(/^\.\//, '').replace(/\/$/, '');
    if (clean === '' || clean === INDEX_PAGE) return INDEX_PAGE;
    const exact = wiki.modules.find((module) => module.id === clean || module.page === clean || module.alsoFolders.includes(clean));
    if (exact) return exact.page;
    const owner = wiki.modules.find((module) => module.files.includes(clean));
    if (owner) return owner.page;
    const inside = wiki.modules.filter((module) => [module.id, ...module.alsoFolders].some((folder) => folder === '.' || clean.startsWith(`${folder}/`)));
    return inside.sort((a, b) => b.id.length - a.id.length)[0]?.page;
  }

  private moduleOfPage(wiki: WikiStructure, page: string): WikiModule {
    const module = wiki.modules.find((entry) => entry.page === page);
    if (!module) throw new Error(`The wiki has no page "${page}"`);
    return module;
  }

  private title(): string {
    const name = this.options.workspace.folderNames[0] || basename(this.options.workspace.root);
    return `${name} wiki`;
  }

  private async lineCount(path: string): Promise<number | undefined> {
    try {
      const range = await readLineRange((await this.options.workspace.resolve(path)).absolute, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1);
      return range.totalLines;
    } catch {
      return undefined;
    }
  }
}
