import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import type { Workspace } from '../../workspace/workspace';
import { indexPage } from '../render/indexPage';
import { modulePage, NO_PROSE_YET, type PageText } from '../render/modulePage';
import { INDEX_PAGE } from '../structure/pagePaths';
import type { WikiStructure } from '../wikiTypes';
import { pageLinksFor } from './pageLinksFor';
import { DEFAULT_NOTES, type PageMeta, readPageParts } from './pageSections';
import { modulePages, readPage } from './pageFiles';
import { writeManifest } from './wikiManifest';
import { prepareWikiFolder } from './wikiFolderGuard';

/** The module id the front page's metadata carries. */
export const OVERVIEW_MODULE = '.overview';

/** One page as it should be now, beside what is on disk. */
export interface PagePlan {
  page: string;
  module: string;
  text: string;
  current?: string;
  /** Its prose was written for other contents of the module. */
  proseStale: boolean;
  hasProse: boolean;
  /** Its module is gone; kept because its notes hold the user's text. */
  orphan?: boolean;
}

export interface WikiPlan {
  pages: PagePlan[];
  /** Pages of modules that are gone and hold nothing of the user's: removed when the plan is applied. */
  obsolete: string[];
}

export interface WikiPlanInput {
  workspace: Workspace;
  /** The wiki folder, absolute. */
  wikiDir: string;
  structure: WikiStructure;
  title: string;
}

/** Every page as the index says it should read, keeping each page's prose (until asked to rewrite it) and notes. */
export async function planWikiPages(input: WikiPlanInput): Promise<WikiPlan> {
  const { workspace, wikiDir, structure } = input;
  const pages: PagePlan[] = [];
  const planPage = async (page: string, module: string, folders: string[], sources: string, render: (text: PageText) => string) => {
    const current = await readPage(wikiDir, page);
    const parts = current === undefined ? {} : readPageParts(current);
    const prose = parts.prose && parts.prose !== NO_PROSE_YET ? parts.prose : undefined;
    // Prose is kept only on the page of the module it was written for (a page path can pass to another module).
    const keptProse = prose && (!parts.meta || parts.meta.module === module) ? prose : undefined;
    const proseMeta = keptProse && parts.meta?.prose ? { prose: parts.meta.prose } : {};
    const meta: PageMeta = { version: 1, module, ...(folders.length > 1 ? { folders } : {}), sources, ...proseMeta };
    const text = render({ meta, prose: keptProse, notes: parts.notes });
    pages.push({ page, module, text, current, hasProse: keptProse !== undefined, proseStale: meta.prose !== undefined && meta.prose.sources !== sources });
  };
  await planPage(INDEX_PAGE, OVERVIEW_MODULE, [], structure.sources, (text) =>
    indexPage(input.title, structure, pageLinksFor(workspace, wikiDir, INDEX_PAGE), text),
  );
  for (const module of structure.modules) {
    await planPage(module.page, module.id, [module.id, ...module.alsoFolders], module.sources, (text) =>
      modulePage(module, structure, pageLinksFor(workspace, wikiDir, module.page), text),
    );
  }
  const planned = new Set(pages.map((plan) => plan.page));
  const obsolete: string[] = [];
  for (const page of await modulePages(wikiDir)) {
    if (planned.has(page)) continue;
    const current = await readPage(wikiDir, page);
    const parts = current === undefined ? {} : readPageParts(current);
    // Only pages CodeWiki wrote (they carry its header) are ever listed, replaced or removed: a file of the
    // user's in the folder is left alone.
    if (current === undefined || !parts.meta) continue;
    if (parts.notes !== undefined && parts.notes.trim() !== '' && parts.notes.trim() !== DEFAULT_NOTES) {
      pages.push({ page, module: parts.meta.module, text: current, current, proseStale: false, hasProse: false, orphan: true });
    } else obsolete.push(page);
  }
  return { pages, obsolete };
}

/** Pages that differ from what they should be, pages of changed modules with old prose, and orphans: what `--check` lists. */
export function stalePages(plan: WikiPlan): Array<{ page: string; reason: string }> {
  const stale: Array<{ page: string; reason: string }> = [];
  for (const page of plan.pages) {
    // An orphan is kept for the user's notes; it is said (orphanPages), never stale, or CI would fail until they move them.
    if (page.orphan) continue;
    if (page.current === undefined) stale.push({ page: page.page, reason: 'not written yet' });
    else if (page.proseStale) stale.push({ page: page.page, reason: 'the module changed since its overview was written' });
    else if (page.current !== page.text) stale.push({ page: page.page, reason: 'the structure changed' });
  }
  for (const page of plan.obsolete) stale.push({ page, reason: 'its module no longer exists' });
  return stale;
}

/** Pages of modules that are gone, kept because their notes hold the user's text. */
export function orphanPages(plan: WikiPlan): string[] {
  return plan.pages.filter((page) => page.orphan).map((page) => page.page);
}

/** Writes the pages that changed, removes obsolete ones and rewrites the manifest; returns the pages written. */
export async function applyWikiPlan(wikiDir: string, roots: readonly string[], plan: WikiPlan): Promise<string[]> {
  await prepareWikiFolder(wikiDir, roots);
  const written: string[] = [];
  for (const page of plan.pages) {
    if (page.orphan || page.current === page.text) continue;
    await writeFileAtomic(join(wikiDir, page.page), page.text);
    written.push(page.page);
  }
  for (const page of plan.obsolete) await rm(join(wikiDir, page), { force: true });
  await writeManifest(wikiDir);
  return written;
}
