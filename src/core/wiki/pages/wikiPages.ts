import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import type { Workspace } from '../../workspace/workspace';
import { indexPage } from '../render/indexPage';
import { modulePage, NO_PROSE_YET, type PageText } from '../render/modulePage';
import { INDEX_PAGE } from '../structure/pagePaths';
import type { WikiStructure } from '../wikiTypes';
import { pageLinksFor } from './pageLinksFor';
import { DEFAULT_NOTES, hasMarkerLine, NOTES_START, PROSE_START, type PageMeta, type PageParts, readPageParts } from './pageSections';
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
  /** An orphan whose page path now belongs to another module: written to this new path (`text`) so its notes are not lost. */
  relocated?: true;
  /** A file CodeWiki did not write is at this path (`current`): it is left alone, and the page (`text`) is not written. */
  foreign?: true;
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
  /** Kept prose with its links made again for the code as it is now (`relinkNames`); as saved without it. */
  relink?: (prose: string, page: string) => string;
}

interface PageOnDisk {
  page: string;
  text: string;
  parts: PageParts;
}

/**
 * Every page as the index says it should read. A page's prose and notes belong to its module, wherever the module's
 * page is now (a page path can pass to another module when modules come and go: `-2` suffixes, folders that slug
 * alike); prose is kept until asked to rewrite it, notes always.
 */
export async function planWikiPages(input: WikiPlanInput): Promise<WikiPlan> {
  const { workspace, wikiDir, structure } = input;
  const onDisk = await pagesOnDisk(wikiDir);
  const byModule = new Map<string, PageOnDisk>();
  for (const found of onDisk.values()) if (found.parts.meta && !byModule.has(found.parts.meta.module)) byModule.set(found.parts.meta.module, found);
  const pages: PagePlan[] = [];
  /** Pages on disk whose prose and notes went to a module's page now. */
  const taken = new Set<string>();
  const planPage = (page: string, module: string, folders: string[], sources: string, render: (text: PageText) => string) => {
    const atPath = onDisk.get(page);
    // A damaged header still marks CodeWiki's page by its markers; a file with neither is the user's.
    const foreign = atPath !== undefined && !atPath.parts.meta && !isCodeWikiPage(atPath.text);
    const own = atPath && !foreign && (!atPath.parts.meta || atPath.parts.meta.module === module) ? atPath : byModule.get(module);
    // Its prose and notes go to this page only if it can be written: over a file of the user's, they stay where they are.
    if (own && !foreign) taken.add(own.page);
    const parts = own?.parts ?? {};
    const prose = parts.prose && parts.prose !== NO_PROSE_YET ? parts.prose : undefined;
    const keptProse = prose && input.relink ? input.relink(prose, page) : prose;
    const proseMeta = keptProse && parts.meta?.prose ? { prose: parts.meta.prose } : {};
    const meta: PageMeta = { version: 1, module, ...(folders.length > 1 ? { folders } : {}), sources, ...proseMeta };
    const text = render({ meta, prose: keptProse, notes: parts.notes });
    pages.push({
      page,
      module,
      text,
      current: atPath?.text,
      hasProse: keptProse !== undefined,
      proseStale: meta.prose !== undefined && meta.prose.sources !== sources,
      ...(foreign ? { foreign: true as const } : {}),
    });
  };
  planPage(INDEX_PAGE, OVERVIEW_MODULE, [], structure.sources, (text) => indexPage(input.title, structure, pageLinksFor(workspace, wikiDir, INDEX_PAGE), text));
  for (const module of structure.modules) {
    planPage(module.page, module.id, [module.id, ...module.alsoFolders], module.sources, (text) =>
      modulePage(module, structure, pageLinksFor(workspace, wikiDir, module.page), text),
    );
  }
  const planned = new Set(pages.map((plan) => plan.page));
  const obsolete: string[] = [];
  for (const { page, text, parts } of onDisk.values()) {
    // Only pages CodeWiki wrote (they carry its header) are ever listed, replaced or removed: a file of the
    // user's in the folder is left alone.
    if (!parts.meta || parts.meta.module === OVERVIEW_MODULE) continue;
    // Its module's page took its prose and notes (here, or at the module's new path).
    if (taken.has(page)) {
      if (!planned.has(page)) obsolete.push(page);
      continue;
    }
    if (!hasUserNotes(parts.notes)) {
      if (!planned.has(page)) obsolete.push(page);
      continue;
    }
    // The user's notes on a page no module took (its module is gone): kept where it is, or at a free path when
    // another module's page goes there now.
    if (!planned.has(page)) pages.push({ page, module: parts.meta.module, text, current: text, proseStale: false, hasProse: false, orphan: true });
    else {
      const moved = freePagePath(page, planned, onDisk);
      planned.add(moved);
      pages.push({ page: moved, module: parts.meta.module, text, proseStale: false, hasProse: false, orphan: true, relocated: true });
    }
  }
  return { pages, obsolete };
}

/** Whether the user wrote anything between the notes markers. */
export function hasUserNotes(notes: string | undefined): boolean {
  return notes !== undefined && notes.trim() !== '' && notes.trim() !== DEFAULT_NOTES;
}

/** A page CodeWiki wrote, known by its markers (where CodeWiki writes them) even when its header line was damaged. */
function isCodeWikiPage(text: string): boolean {
  return hasMarkerLine(text, PROSE_START) || hasMarkerLine(text, NOTES_START);
}

async function pagesOnDisk(wikiDir: string): Promise<Map<string, PageOnDisk>> {
  const found = new Map<string, PageOnDisk>();
  for (const page of [INDEX_PAGE, ...(await modulePages(wikiDir))]) {
    const text = await readPage(wikiDir, page);
    if (text !== undefined) found.set(page, { page, text, parts: readPageParts(text) });
  }
  return found;
}

/** `modules/x.md` → `modules/x-notes.md` (`-notes-2` …): a path no module and no file has. */
function freePagePath(page: string, planned: Set<string>, onDisk: Map<string, PageOnDisk>): string {
  const stem = page.replace(/\.md$/, '');
  let candidate = `${stem}-notes.md`;
  for (let suffix = 2; planned.has(candidate) || onDisk.has(candidate); suffix++) candidate = `${stem}-notes-${suffix}.md`;
  return candidate;
}

/** Why a page cannot be written: said by `--check`, and by Generate. */
export const FOREIGN_FILE = 'a file CodeWiki did not write is at this path (move it, or choose another wiki folder)';

/** Pages that differ from what they should be, pages of changed modules with old prose, and orphans: what `--check` lists. */
export function stalePages(plan: WikiPlan): Array<{ page: string; reason: string }> {
  const stale: Array<{ page: string; reason: string }> = [];
  for (const page of plan.pages) {
    // An orphan is kept for the user's notes; it is said (orphanPages), never stale, or CI would fail until they move them.
    if (page.orphan) continue;
    if (page.foreign) stale.push({ page: page.page, reason: FOREIGN_FILE });
    else if (page.current === undefined) stale.push({ page: page.page, reason: 'not written yet' });
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
    if ((page.orphan && !page.relocated) || page.foreign || page.current === page.text) continue;
    await writeFileAtomic(join(wikiDir, page.page), page.text);
    written.push(page.page);
  }
  for (const page of plan.obsolete) await rm(join(wikiDir, page), { force: true });
  await writeManifest(wikiDir);
  return written;
}
