import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import type { Workspace } from '../workspace/workspace';
import { isSmallModel } from './modelAdapters';
import { workspaceLayout } from './systemPrompt';

/** What the system prompt shows of the workspace: the index's repo map, or the file layout when there is no index to map. */
export interface WorkspaceOverview {
  repoMap?: string;
  layout?: string;
}

/** Tokens of repo map in the system prompt: every token is prompt processing the model pays on a cold cache (about 30 a second for the 1.5B default on 2 cores). */
export const REPO_MAP_TOKENS = { small: 512, large: 1_024 } as const;

/**
 * The workspace section of the agent's system prompt, for the agent loop and the prompt preview alike.
 * The map has no focus, so it depends only on the workspace and stays byte-identical from question to
 * question (what a server's prompt cache needs); the question's own candidates go into its turn.
 */
export async function workspaceOverview(
  workspace: Workspace | undefined,
  codeIndex: CodeIndex | undefined,
  modelName: string,
  signal?: AbortSignal,
): Promise<WorkspaceOverview> {
  if (codeIndex) {
    try {
      const map = await codeIndex.repoMap({ budgetTokens: isSmallModel(modelName) ? REPO_MAP_TOKENS.small : REPO_MAP_TOKENS.large });
      if (map.symbols > 0) return { repoMap: map.text };
    } catch {
      // the layout below still tells the model what is there
    }
  }
  return { layout: workspace ? await workspaceLayout(workspace, signal) : undefined };
}
