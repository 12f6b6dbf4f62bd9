import type { ToolRegistry } from '../toolRegistry';
import type { Workspace } from '../../workspace/workspace';
import { createGetFileSummariesTool } from './getFileSummaries';
import { createGetFilesContentByListTool } from './getFilesContentByList';
import { createListFilesTool } from './listFiles';
import { createReadFileTool } from './readFile';
import { createSearchTextTool } from './searchText';

/** Walking and reading a large repository over a slow disk can take a while; this is the default deadline. */
const FILE_TOOL_TIMEOUT_MS = 60_000;

/** The workspace file tools, all read-only and all confined to `workspace` (security promise #7). */
export function registerFileTools(registry: ToolRegistry, workspace: Workspace): void {
  const common = { kind: 'read', timeoutMs: FILE_TOOL_TIMEOUT_MS, agentCallable: true } as const;
  registry
    .register(createGetFileSummariesTool(workspace), { ...common, category: 'file', displayName: 'File summaries' })
    .register(createGetFilesContentByListTool(workspace), { ...common, category: 'file', displayName: 'Read files' })
    .register(createReadFileTool(workspace), { ...common, category: 'file', displayName: 'Read file' })
    .register(createListFilesTool(workspace), { ...common, category: 'file', displayName: 'List files' })
    .register(createSearchTextTool(workspace), { ...common, category: 'search', displayName: 'Search text' });
}
