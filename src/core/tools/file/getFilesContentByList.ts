import { codewikiTool } from '../codewikiTool';
import { z } from 'zod';
import type { FileBundle } from '../../values/toolValues';
import { throwIfAborted } from '../../util/abort';
import type { Workspace } from '../../workspace/workspace';
import { WorkspaceAccessError } from '../../workspace/workspaceErrors';
import { ByteBudget, readFileContent } from './fileContent';
import { parsePathList } from './parsePathList';

const schema = z.object({
  file_paths: z
    .union([z.array(z.string()), z.string()])
    .describe('Workspace-relative file paths: an array, or one string with paths separated by commas or new lines'),
});

export function createGetFilesContentByListTool(workspace: Workspace) {
  return codewikiTool(async (input, config) => readFileList(workspace, input.file_paths, config?.signal), {
    name: 'get_files_content_by_list',
    description:
      'Read the full contents of several files at once. Paths that cannot be read (missing, outside the ' +
      'workspace, secret, binary) are reported as missing with the reason; large files are truncated with a marker.',
    schema,
  });
}

/**
 * Files are read one after another, in the order asked for, so the per-call byte budget goes to
 * the files the model listed first and the same request always gets the same answer.
 */
async function readFileList(workspace: Workspace, requested: string | string[], signal?: AbortSignal): Promise<FileBundle> {
  const paths = Array.isArray(requested) ? requested.flatMap(parsePathList) : parsePathList(requested);
  const bundle: FileBundle = { kind: 'file-bundle', files: [], missing: [] };
  const budget = new ByteBudget(workspace.limits.maxTotalBytes);
  const seen = new Set<string>();
  for (const path of paths) {
    throwIfAborted(signal);
    try {
      const target = await workspace.resolve(path);
      if (seen.has(target.absolute)) continue; // "a.ts" and "./a.ts" are one file
      seen.add(target.absolute);
      bundle.files.push(await readFileContent(workspace, target, path, budget));
    } catch (error) {
      if (signal?.aborted) throw error;
      bundle.missing.push({ path, reason: describeFailure(error) });
    }
  }
  return bundle;
}

function describeFailure(error: unknown): string {
  if (error instanceof WorkspaceAccessError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  return `cannot be read${code ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}`;
}
