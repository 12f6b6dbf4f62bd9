import * as vscode from 'vscode';
import { authoringKindOf, type AuthoringKind } from '../../core/authoring';
import { isInside, promptFolderDirs } from '../workspaceFolders';

/**
 * The files CodeWiki helps write: action prompts and agent definitions in any folder's `.codewiki`
 * folder, and action prompts in the folders `codewiki.promptFolders` names (in every folder of the
 * window), which the engine loads just the same. Registered again when that setting or the folders change.
 */
export function authoringSelector(): vscode.DocumentFilter[] {
  return [
    { scheme: 'file', pattern: '**/.codewiki/prompts/**/*.{yaml,yml}' },
    { scheme: 'file', pattern: '**/.codewiki/agents/**/*.{yaml,yml}' },
    ...promptFolderDirs().map((dir) => ({ scheme: 'file', pattern: new vscode.RelativePattern(vscode.Uri.file(dir), '**/*.{yaml,yml}') })),
  ];
}

/** The kind of an open document, or undefined when it is not an authoring file (same test as the selector). */
export function authoringKindOfDocument(document: vscode.TextDocument): AuthoringKind | undefined {
  if (document.uri.scheme !== 'file') return undefined;
  const path = document.uri.fsPath.replace(/\\/g, '/');
  if (/\/\.codewiki\/(prompts|agents)\//.test(path)) return authoringKindOf(path);
  if (!/\.ya?ml$/i.test(path)) return undefined;
  return promptFolderDirs().some((dir) => isInside(dir, document.uri.fsPath)) ? 'prompt' : undefined;
}

export function rangeOf(document: vscode.TextDocument, span: { start: number; end: number }): vscode.Range {
  return new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
}
