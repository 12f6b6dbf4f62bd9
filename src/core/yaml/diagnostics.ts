/** A problem in an action-prompt file, located precisely enough for `file:line:col` and the Problems panel. */
export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Dotted field path, e.g. `tool_chain[2].tool`; empty for whole-file problems. */
  field: string;
  message: string;
  /** An error stops the prompt from running; a warning is shown but does not. */
  severity: 'error' | 'warning';
}

/** `file:line:col: field: message`; warnings say so after the position, as compilers print them. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.field ? ` ${d.field}:` : '';
  const kind = d.severity === 'warning' ? ' warning:' : '';
  return `${d.file}:${d.line}:${d.column}:${kind}${where} ${d.message}`;
}

export function formatFieldPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** Thrown when a file cannot be used; carries every problem found, not just the first. */
export class ActionPromptError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'ActionPromptError';
  }
}
