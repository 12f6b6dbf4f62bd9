import type { PositionIndex } from '../../yaml/yamlPositions';
import { type Diagnostic, formatFieldPath } from '../../yaml/diagnostics';
import { positionInValue } from '../positionInValue';
import type { FieldPath } from './dialectPositions';
import { DialectReferenceError, type DialectScope, translateTemplate } from './dialectReferences';

export interface ProblemPlace {
  /** Point at the key rather than its value. */
  atKey?: boolean;
  /** Point at the `occurrence`-th `needle` inside the string value (e.g. one `${` of several). */
  needle?: string;
  occurrence?: number;
}

/** Collects the translator's problems, each at the line and column of the seed file, once each. */
export class DialectReport {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly written: PositionIndex,
    private readonly file: string,
  ) {}

  error(path: FieldPath, message: string, place: ProblemPlace = {}): void {
    this.add(path, message, 'error', place);
  }

  warning(path: FieldPath, message: string, place: ProblemPlace = {}): void {
    this.add(path, message, 'warning', place);
  }

  /** A seed value (string, or any shape of strings) as a CodeWiki template value, its references translated. */
  template(value: unknown, path: FieldPath, scope: DialectScope): unknown {
    if (typeof value === 'string') {
      return translateTemplate(value, scope, (error, occurrence) => this.error(path, error.message, { needle: error.needle, occurrence }));
    }
    if (Array.isArray(value)) return value.map((item, i) => this.template(item, [...path, i], scope));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.template(item, [...path, key], scope)]));
    }
    return value;
  }

  referenceErrors(errors: DialectReferenceError[], path: FieldPath): void {
    for (const error of errors) this.error(path, error.message, { needle: error.needle });
  }

  private add(path: FieldPath, message: string, severity: Diagnostic['severity'], place: ProblemPlace): void {
    const position = place.needle ? positionInValue(this.written, path, place.needle, place.occurrence) : this.written.locate(path, place.atKey);
    const diagnostic: Diagnostic = { file: this.file, ...position, field: formatFieldPath(path), message, severity };
    const key = `${diagnostic.line}:${diagnostic.column}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.diagnostics.push(diagnostic);
  }
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Reports every key of `record` that is not in `allowed`, naming it and what is allowed there. */
export function rejectUnknownKeys(record: Record<string, unknown>, allowed: readonly string[], path: FieldPath, where: string, report: DialectReport): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key))
      report.error(
        [...path, key],
        `"${key}" ${where} has no CodeWiki equivalent, so it is not accepted rather than ignored (allowed here: ${allowed.join(', ')})`,
        { atKey: true },
      );
  }
}
