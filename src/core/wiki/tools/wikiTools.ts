import { z } from 'zod';
import { codewikiTool } from '../../tools/codewikiTool';
import type { ToolRegistry } from '../../tools/toolRegistry';
import { toolRuntimeOf } from '../../tools/toolRuntime';
import type { SelfRenderedValue } from '../../values/toolValues';
import type { CodeWiki, ProseTarget } from '../codeWiki';
import { stalePages } from '../pages/wikiPages';
import { readableWikiPage } from './readableWikiPage';

export interface WikiPlanValue extends SelfRenderedValue {
  kind: 'wiki-plan';
  /** Module pages whose prose should be written, most used module first. */
  modules: ProseTarget[];
  /** Whether the front page's overview should be written (after the modules'). */
  overview: boolean;
  /** Pages whose structure was rewritten. */
  written: string[];
  /** Pages that were out of date before this step. */
  stale: number;
}

const planSchema = z.object({
  scope: z.enum(['stale', 'all']).optional().describe('stale (default): prose only for pages without it or whose module changed; all: every page'),
  shard: z
    .string()
    .regex(/^\d+\/\d+$/, 'a shard is K/N, e.g. 2/4')
    .optional()
    .describe('K/N: only every Nth module page, starting at the Kth (CI jobs split a large wiki); the overview only when N is 1'),
});
const contextSchema = z.object({ page: z.string().min(1).max(300).describe('A page of the wiki: index.md or modules/<name>.md') });
const saveSchema = z.object({
  page: z.string().min(1).max(300).describe('The page the prose is for'),
  prose: z.string().max(20_000).describe("The model's prose"),
  model: z.string().max(200).optional().describe('Who wrote it (default: the tool model)'),
});
const readSchema = z.object({
  about: z.string().max(500).optional().describe('A module folder, or a file or folder inside one (empty: the front page with every module)'),
});

/**
 * The wiki's tools. Three are steps of the built-in `wiki` action prompt (plan the pages, give a page's
 * context, check and save a page's prose); they write only inside the wiki folder and are not offered to
 * the agent. `read_wiki` is the agent's: a module's page before its code.
 */
export function registerWikiTools(registry: ToolRegistry, wiki: CodeWiki): void {
  const workflowOnly = { category: 'custom', agentCallable: false, timeoutMs: 120_000 } as const;
  registry
    .register(
      codewikiTool(
        async (input, config): Promise<WikiPlanValue> => {
          // A dry run shows the plan and writes nothing; a shard of several writes only its own pages (with their
          // prose), so the pages of parallel jobs can be merged by copying without one job's stale copy winning.
          const writesNothing = toolRuntimeOf(config).dryRun || isPartialShard(input.shard);
          const {
            plan,
            wiki: structure,
            written,
          } = writesNothing ? { ...(await wiki.plan(config?.signal)), written: [] as string[] } : await wiki.updateStructure(config?.signal);
          const targets = shardOf(wiki.proseTargets(plan, structure, input.scope ?? 'stale'), input.shard);
          return {
            kind: 'wiki-plan',
            ...targets,
            written,
            stale: stalePages(plan).length,
            text: `${structure.modules.length} modules; prose to write for ${targets.modules.length} module page(s)${targets.overview ? ' and the overview' : ''}`,
          };
        },
        {
          name: 'wiki_plan',
          description: "Brings the wiki's structure pages up to date from the code index and lists the pages whose prose to write.",
          schema: planSchema,
        },
      ),
      { ...workflowOnly, kind: 'write', displayName: 'Plan the wiki' },
    )
    .register(
      codewikiTool(
        async (input) => {
          const context = await wiki.proseContext(input.page);
          return { kind: 'wiki-context' as const, page: input.page, tokens: context.tokens, text: context.text };
        },
        { name: 'wiki_context', description: "What a page's prose is written from: the module's structure and a few snippets.", schema: contextSchema },
      ),
      { ...workflowOnly, kind: 'read', displayName: 'Wiki page context' },
    )
    .register(
      codewikiTool(
        async (input, config) => {
          const runtime = toolRuntimeOf(config);
          if (runtime.dryRun) return { kind: 'wiki-saved', page: input.page, removed: 0, text: `(dry run) would save the prose of ${input.page}` };
          const saved = await wiki.saveProse(input.page, input.prose, input.model ?? runtime.modelName('tool'));
          if (saved.removed.length) {
            const names = saved.removed.map((claim) => `\`${claim.name}\` (${claim.reason})`).join('; ');
            runtime.warn(`${input.page}: removed ${saved.removed.length} sentence(s) naming what does not exist: ${names}`, config.runName);
          }
          if (!saved.written) runtime.warn(`${input.page}: no prose left after the trust check; the page keeps its structure only`, config.runName);
          return {
            kind: 'wiki-saved',
            page: input.page,
            removed: saved.removed.length,
            text: saved.written ? `saved ${input.page} (${saved.removed.length} claim(s) removed)` : `nothing saved for ${input.page}`,
          };
        },
        { name: 'wiki_save_prose', description: 'Checks prose for names that do not exist, links the rest and puts it on its wiki page.', schema: saveSchema },
      ),
      { ...workflowOnly, kind: 'write', displayName: 'Save wiki prose' },
    )
    .register(
      codewikiTool(
        async (input) => {
          const found = await wiki.readPage(input.about);
          if (!found) return { kind: 'wiki-page', text: `No module of the wiki covers "${input.about}". read_wiki with no argument lists the modules.` };
          return { kind: 'wiki-page', page: found.page, text: readableWikiPage(found.text, found.generated) };
        },
        {
          name: 'read_wiki',
          description:
            "The workspace wiki's page for a module (what it is for, its key definitions with file:line, entry points, dependencies), or the list of modules. Read it before the module's code.",
          schema: readSchema,
        },
      ),
      { category: 'search', kind: 'read', agentCallable: true, timeoutMs: 60_000, displayName: 'Read wiki' },
    );
}

/** Shard K of N: modules in a fixed order (by page) dealt round-robin, so N jobs cover every page once. */
function shardOf(targets: { modules: ProseTarget[]; overview: boolean }, shard: string | undefined): { modules: ProseTarget[]; overview: boolean } {
  if (!shard) return targets;
  const [k, n] = shard.split('/').map(Number) as [number, number];
  if (n < 1 || k < 1 || k > n) throw new Error(`shard ${shard}: expected K/N with 1 ≤ K ≤ N`);
  if (n === 1) return targets;
  const ordered = [...targets.modules].sort((a, b) => a.page.localeCompare(b.page));
  return { modules: ordered.filter((_, index) => index % n === k - 1), overview: false };
}

/** `K/N` with N above 1: one of several jobs. */
export function isPartialShard(shard: string | undefined): boolean {
  return shard !== undefined && Number(shard.split('/')[1]) > 1;
}
