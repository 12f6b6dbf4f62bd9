import { ActionPromptError, type Diagnostic } from '../yaml/diagnostics';
import { compileAgentDefinition } from '../subagents/compileAgentDefinition';
import { PositionIndex } from '../yaml/yamlPositions';
import type { AuthoringEnvironment } from './authoringEnvironment';
import type { AuthoringKind } from './authoringKind';

/**
 * Every problem in one action prompt or agent definition, from the loader itself: the function
 * behind both `codewiki validate` and the editor's diagnostics as you type, so the two never
 * disagree. Warnings of a valid file are returned too; an empty list means the file is clean.
 */
export function diagnoseDocument(text: string, file: string, kind: AuthoringKind, env: AuthoringEnvironment): Diagnostic[] {
  try {
    if (kind === 'agent') return compileAgentDefinition(text, { file, source: 'workspace', tools: env.agentTools }).warnings;
    return env.prompts.validateText(text, file);
  } catch (error) {
    if (error instanceof ActionPromptError) return error.diagnostics;
    return [{ file, line: 1, column: 1, field: '', message: (error as Error)?.message ?? String(error), severity: 'error' }];
  }
}

/** A diagnostic with the text it is about, as offsets: what an editor underlines. */
export interface LocatedDiagnostic extends Diagnostic {
  start: number;
  end: number;
}

/** diagnoseDocument, each problem stretched from its line and column over the key or value written there. */
export function locatedDiagnostics(text: string, file: string, kind: AuthoringKind, env: AuthoringEnvironment): LocatedDiagnostic[] {
  const lines = new PositionIndex(text, undefined);
  return diagnoseDocument(text, file, kind, env).map((d) => {
    const start = lines.offsetAt(d.line, d.column);
    return { ...d, start, end: tokenEnd(text, start) };
  });
}

/** The end of the key (before its `:`) or of the value (before a trailing comment) that starts at `start`, on its line. */
function tokenEnd(text: string, start: number): number {
  let lineEnd = text.indexOf('\n', start);
  if (lineEnd < 0) lineEnd = text.length;
  const rest = text.slice(start, lineEnd).replace(/\r$/, '');
  const key = /^(?:[^\s:"'#][^:#]*?|"[^"]*"|'[^']*')(?=\s*:(?:\s|$))/.exec(rest);
  if (key) return start + key[0].length;
  const value = rest.replace(/\s+#.*$/, '').trimEnd();
  return start + Math.max(value.length, Math.min(1, rest.length));
}
