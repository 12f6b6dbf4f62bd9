import { stat } from 'node:fs/promises';
import type { FileContent } from '../../values/toolValues';
import { WorkspaceAccessError, quotePath } from '../../workspace/workspaceErrors';
import { decodeText, formatBytes, readFilePrefix, truncationMarker } from '../../workspace/readTextFile';
import type { ResolvedPath, Workspace } from '../../workspace/workspace';
import { languageFromPath } from './languages';

/** What one tool call may still return (`maxTotalBytes`), shared by every file it reads. */
export class ByteBudget {
  constructor(private remainingBytes: number) {}

  get remaining(): number {
    return this.remainingBytes;
  }

  spend(bytes: number): void {
    this.remainingBytes = Math.max(0, this.remainingBytes - bytes);
  }
}

/**
 * Reads one resolved file for the model, within the per-file cap and what is left of the per-call
 * budget. A cut file ends with a marker line so the model knows it has not seen everything.
 */
export async function readFileContent(workspace: Workspace, target: ResolvedPath, userPath: string, budget: ByteBudget): Promise<FileContent> {
  await assertIsFile(target, userPath);
  const allowed = Math.min(workspace.limits.maxFileBytes, budget.remaining);
  if (allowed <= 0) {
    throw new WorkspaceAccessError(
      'too-large',
      userPath,
      `${quotePath(userPath)} was skipped: this call already returned ${formatBytes(workspace.limits.maxTotalBytes)}, the per-call limit`,
    );
  }
  const prefix = await readFilePrefix(target.absolute, allowed);
  if (prefix.binary) {
    throw new WorkspaceAccessError('binary', userPath, `${quotePath(userPath)} is a binary file`);
  }
  budget.spend(prefix.bytes.length);
  const path = workspace.displayPath(target);
  let content = decodeText(prefix.bytes, prefix.truncated);
  if (!prefix.truncated) return { path, language: languageFromPath(path), content };
  content = cutAtLineEnd(content);
  content += `${content.endsWith('\n') ? '' : '\n'}${truncationMarker(prefix.size, prefix.bytes.length)}`;
  return { path, language: languageFromPath(path), content, truncated: true };
}

export async function assertIsFile(target: ResolvedPath, userPath: string): Promise<void> {
  if (!(await stat(target.absolute)).isFile()) {
    throw new WorkspaceAccessError('not-a-file', userPath, `${quotePath(userPath)} is a folder, not a file`);
  }
}

/** Half a line is worse than none: drop a partial last line unless that would drop a lot. */
function cutAtLineEnd(text: string): string {
  const lastNewline = text.lastIndexOf('\n');
  return lastNewline >= text.length * 0.75 ? text.slice(0, lastNewline + 1) : text;
}
