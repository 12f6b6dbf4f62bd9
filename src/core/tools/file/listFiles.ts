import { codewikiTool } from '../codewikiTool';
import { z } from 'zod';
import type { FileTree, FileTreeEntry } from '../../values/toolValues';
import { forEachBounded } from '../../util/boundedConcurrency';
import { resolveWalkStarts } from '../../workspace/walkFolders';
import { type WalkEntry, walkWorkspace } from '../../workspace/walkWorkspace';
import type { Workspace } from '../../workspace/workspace';

const DEFAULT_LIST_DEPTH = 2;
const MAX_LIST_DEPTH = 10;
/** A tree longer than this stops being an overview; the model should list a sub-folder instead. */
const MAX_LIST_ENTRIES = 2000;

const schema = z.object({
  path: z.string().optional().describe('Folder to list, relative to the workspace root (default: the root, with every folder of the workspace)'),
  depth: z.number().int().min(1).optional().describe(`How many levels to descend (default ${DEFAULT_LIST_DEPTH}, max ${MAX_LIST_DEPTH})`),
});

export function createListFilesTool(workspace: Workspace) {
  return codewikiTool(async (input, config) => listFiles(workspace, input, config?.signal), {
    name: 'list_files',
    description: 'List the files and folders under a folder as a tree, skipping ignored, generated, binary and secret files.',
    schema,
  });
}

async function listFiles(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<FileTree> {
  const starts = await resolveWalkStarts(workspace, input.path);
  const maxDepth = Math.min(input.depth ?? DEFAULT_LIST_DEPTH, MAX_LIST_DEPTH);
  const fs = workspace.createFs();
  const walked: WalkEntry[] = [];
  let truncated = false;
  for (const [index, start] of starts.entries()) {
    // The other folders of a multi-root workspace are top-level folders of the tree, named as their paths begin.
    const shift = index === 0 ? 0 : 1;
    if (shift) walked.push({ ...start, type: 'dir', depth: 1 });
    if (maxDepth - shift < 1) continue;
    const room = workspace.limits.maxWalkEntries - walked.length;
    const walk = await walkWorkspace(workspace, start, { maxDepth: maxDepth - shift, includeDirectories: true, signal, fs, maxEntries: room });
    walked.push(...walk.entries.map((entry) => ({ ...entry, depth: entry.depth + shift })));
    truncated ||= walk.truncated;
  }
  const listed = capBreadthFirst(walked, MAX_LIST_ENTRIES);
  const entries: FileTreeEntry[] = listed.map((entry) => ({
    path: workspace.displayPath(entry),
    type: entry.type,
    depth: entry.depth,
  }));
  await forEachBounded(
    listed,
    workspace.limits.ioConcurrency,
    async (entry, index) => {
      if (entry.type !== 'file') return;
      await fs.pause();
      try {
        (entries[index] as FileTreeEntry).size = (await fs.stat(entry.absolute)).size;
      } catch {
        // Vanished since the walk: listed without a size rather than failing the whole tree.
      }
    },
    { signal },
  );
  return {
    kind: 'file-tree',
    root: workspace.displayPath(starts[0]!),
    entries,
    truncated: truncated || walked.length > MAX_LIST_ENTRIES,
  };
}

/** Over the cap, shallow entries win: the top of the tree is the overview the model asked for. */
function capBreadthFirst<T extends { depth: number }>(entries: T[], max: number): T[] {
  if (entries.length <= max) return entries;
  const kept = new Set([...entries].sort((a, b) => a.depth - b.depth).slice(0, max));
  return entries.filter((entry) => kept.has(entry));
}
