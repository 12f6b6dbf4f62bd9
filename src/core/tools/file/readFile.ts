import { codewikiTool } from '../codewikiTool';
import { z } from 'zod';
import type { FileBundle, FileContent } from '../../values/toolValues';
import { readLineRange } from '../../workspace/readLineRange';
import { formatBytes, truncationMarker } from '../../workspace/readTextFile';
import type { Workspace } from '../../workspace/workspace';
import { WorkspaceAccessError, quotePath } from '../../workspace/workspaceErrors';
import { assertIsFile } from './fileContent';
import { languageFromPath } from './languages';

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root'),
  start_line: z.number().int().min(1).optional().describe('First line to read (1-based, inclusive)'),
  end_line: z.number().int().min(1).optional().describe('Last line to read (1-based, inclusive)'),
});

export function createReadFileTool(workspace: Workspace) {
  return codewikiTool(async (input, config) => readOneFile(workspace, input, config?.signal), {
    name: 'read_file',
    description:
      'Read one text file, optionally only a range of lines (1-based, inclusive). Large files are ' + 'truncated with a marker; read further with start_line.',
    schema,
  });
}

async function readOneFile(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<FileBundle> {
  const { path: userPath, start_line, end_line } = input;
  if (start_line !== undefined && end_line !== undefined && end_line < start_line) {
    throw new Error(`end_line (${end_line}) is before start_line (${start_line})`);
  }
  const target = await workspace.resolve(userPath);
  await assertIsFile(target, userPath);
  const ranged = start_line !== undefined || end_line !== undefined;
  const start = start_line ?? 1;
  const maxBytes = Math.min(workspace.limits.maxFileBytes, workspace.limits.maxTotalBytes);
  const range = await readLineRange(target.absolute, start, end_line ?? Number.POSITIVE_INFINITY, maxBytes, signal);
  if (range.binary) throw new WorkspaceAccessError('binary', userPath, `${quotePath(userPath)} is a binary file`);
  if (range.totalLines !== undefined && start > Math.max(range.totalLines, 1)) {
    throw new Error(`${quotePath(userPath)} has ${range.totalLines} lines; start_line ${start} is past the end`);
  }

  const path = workspace.displayPath(target);
  const file: FileContent = { path, language: languageFromPath(path), content: range.text };
  let lastLine = range.lastLine;
  if (range.truncated) {
    // End on a whole line when there is one, so "continue with start_line" loses nothing.
    const lastNewline = file.content.lastIndexOf('\n');
    if (lastNewline >= 0) {
      file.content = file.content.slice(0, lastNewline + 1);
      lastLine = start + countNewlines(file.content) - 1;
    }
    const marker = ranged
      ? `… [truncated by CodeWiki: file is ${formatBytes(range.size)}, showing ${formatBytes(maxBytes)} from line ${start}; continue with start_line ${lastLine + 1}]`
      : truncationMarker(range.size, maxBytes);
    file.content += `${file.content.endsWith('\n') ? '' : '\n'}${marker}`;
    file.truncated = true;
  }
  if (ranged) {
    file.startLine = start;
    file.endLine = Math.max(start, lastLine);
  }
  return { kind: 'file-bundle', files: [file], missing: [] };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
