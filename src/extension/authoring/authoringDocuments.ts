import * as vscode from 'vscode';
import { authoringKindOf, type AuthoringKind } from '../../core/authoring';

/** The files CodeWiki helps write: action prompts and agent definitions in the workspace's `.codewiki` folder. */
export const AUTHORING_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/.codewiki/prompts/**/*.{yaml,yml}' },
  { scheme: 'file', pattern: '**/.codewiki/agents/**/*.{yaml,yml}' },
];

/** The kind of an open document, or undefined when it is not an authoring file (same test as the selector). */
export function authoringKindOfDocument(document: vscode.TextDocument): AuthoringKind | undefined {
  if (document.uri.scheme !== 'file') return undefined;
  const path = document.uri.fsPath.replace(/\\/g, '/');
  return /\/\.codewiki\/(prompts|agents)\//.test(path) ? authoringKindOf(path) : undefined;
}

export function rangeOf(document: vscode.TextDocument, span: { start: number; end: number }): vscode.Range {
  return new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
}
