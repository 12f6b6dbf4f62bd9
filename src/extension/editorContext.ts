import * as vscode from 'vscode';
import { Workspace } from '../core/workspace/workspace';
import { resolveCitedFile } from './citedFile';
import type { ContextAttachment, SelectionAttachment } from '../shared/protocol';
import { folderSpecs, workspacePathOf } from './workspaceFolders';

/**
 * The path of a file URI inside an open folder as the file tools write it (forward slashes; `<folder
 * name>/…` in a multi-root workspace's other folders); undefined otherwise.
 */
export function workspaceRelativePath(uri: vscode.Uri): string | undefined {
  const path = workspacePathOf(uri);
  return path === '.' ? undefined : path;
}

/** The file in the active editor, as the agent is told it: it goes with every agent-mode question. */
export function openEditorFile(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor ? workspaceRelativePath(editor.document.uri) : undefined;
}

/**
 * The active editor's selection as a chip: whole lines, 1-based. With nothing selected, the file
 * itself. Undefined when no workspace file is open.
 */
export function editorAttachment(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): ContextAttachment | undefined {
  const path = editor && workspaceRelativePath(editor.document.uri);
  if (!editor || !path) return undefined;
  const selection = editor.selection;
  if (selection.isEmpty) return { kind: 'file', path };
  // A selection ending at column 0 of a line does not include that line.
  const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return { kind: 'selection', path, startLine: selection.start.line + 1, endLine };
}

/** What `#selection` attaches: the active editor's selected lines, or why there are none (for the user). */
export function currentSelection(
  editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor,
): { selection: SelectionAttachment } | { problem: string } {
  const attachment = editorAttachment(editor);
  if (attachment?.kind === 'selection') return { selection: attachment };
  return {
    problem: attachment
      ? '#selection: nothing is selected in the editor; select some lines first.'
      : '#selection: select some lines in a workspace file first.',
  };
}

/**
 * Opens `path` (from a `path:line` link in an answer) at `line`. The path is resolved the way the
 * file tools resolve theirs (inside the workspace folders, real paths, no secret files), so a link
 * a prompt-injected answer points elsewhere opens nothing; a path's end (`JsonWriter.java:775`) opens
 * the file it ends, or offers the files it could be (citedFile.ts).
 */
export async function openWorkspaceFile(path: string, line: number | undefined, workspace: Workspace | undefined): Promise<void> {
  const folders = folderSpecs();
  if (!workspace && folders.length === 0) throw new Error('Open a folder to open files from answers.');
  const target = await resolveCitedFile(workspace ?? (await Workspace.open(folders)), path);
  if (!target) return;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target.absolute));
  const position = new vscode.Position(Math.min(Math.max(0, (line ?? 1) - 1), Math.max(0, document.lineCount - 1)), 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true });
}
