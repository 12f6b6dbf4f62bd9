import * as vscode from 'vscode';
import type { Diagnostic } from '../../core/yaml/diagnostics';

/** Marks CodeWiki's entries in the Problems panel; quick fixes act on these only. */
export const CODEWIKI_DIAGNOSTIC_SOURCE = 'CodeWiki';

/**
 * One loader problem as a VS Code diagnostic: the same text `codewiki validate` prints after the
 * position, and the field path in `code`, where quick fixes read it back.
 */
export function toVscodeDiagnostic(problem: Diagnostic, range: vscode.Range): vscode.Diagnostic {
  const severity = problem.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const diagnostic = new vscode.Diagnostic(range, problem.field ? `${problem.field}: ${problem.message}` : problem.message, severity);
  diagnostic.source = CODEWIKI_DIAGNOSTIC_SOURCE;
  if (problem.field) diagnostic.code = problem.field;
  return diagnostic;
}

/** A range for a problem known only by line and column (a file that is not open): one character. */
export function pointRange(problem: Pick<Diagnostic, 'line' | 'column'>): vscode.Range {
  const position = new vscode.Position(Math.max(0, problem.line - 1), Math.max(0, problem.column - 1));
  return new vscode.Range(position, position.translate(0, 1));
}
