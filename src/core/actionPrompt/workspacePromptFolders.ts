import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Workspace } from '../workspace/workspace';
import { WorkspaceAccessError } from '../workspace/workspaceErrors';
import { WORKSPACE_PROMPTS_DIR } from './promptCatalog';

export interface WorkspacePromptFolders {
  /** In load order: the first file of an id wins (PromptCatalog). */
  dirs: string[];
  /** Extra folders that were skipped, and why. */
  warnings: string[];
}

/**
 * Where a workspace's action prompts are, in the order they load: for each folder of the workspace, first
 * one first, its `.codewiki/prompts`, then the extra prompt folders (`codewiki.promptFolders`) inside it.
 * A relative extra folder is looked for in every folder of the workspace (and `lib/prompts` in the folder
 * named lib, as paths are written); one found in none is skipped with a warning, as is one outside the
 * workspace or one that leaves it by a symbolic link.
 */
export async function workspacePromptFolders(workspace: Workspace, extra: readonly string[]): Promise<WorkspacePromptFolders> {
  const byRoot = workspace.roots.map((root) => [join(root, WORKSPACE_PROMPTS_DIR)]);
  const warnings: string[] = [];
  for (const folder of extra) {
    const candidates = isAbsolute(folder) ? [folder] : [folder, ...workspace.roots.slice(1).map((root) => join(root, folder))];
    let found = false;
    let refused: string | undefined;
    for (const candidate of candidates) {
      try {
        const target = await workspace.resolve(candidate);
        if (!(await stat(target.absolute)).isDirectory()) throw new WorkspaceAccessError('not-a-directory', folder, `"${folder}" is not a folder`);
        const dirs = byRoot[workspace.roots.indexOf(target.root)];
        if (dirs && !dirs.includes(target.absolute)) dirs.push(target.absolute);
        found = true;
      } catch (error) {
        if (!(error instanceof WorkspaceAccessError) || error.code !== 'not-found') refused ??= (error as Error).message;
      }
    }
    if (refused) warnings.push(`prompt folder skipped: ${refused}`);
    else if (!found)
      warnings.push(`prompt folder skipped: "${folder}" does not exist in ${workspace.roots.length > 1 ? 'any folder of the workspace' : 'the workspace'}`);
  }
  return { dirs: byRoot.flat(), warnings };
}
