import { parseYamlSafely } from '../yaml/parseYamlSafely';
import type { PositionIndex } from '../yaml/yamlPositions';
import type { AuthoringKind } from './authoringKind';

/** One file being edited: its text, its kind and, when it parses, its raw (unvalidated) value and positions. */
export interface AuthoringDocument {
  text: string;
  file: string;
  kind: AuthoringKind;
  /** The parsed YAML as written; undefined when even the lenient parse fails. */
  value: unknown;
  positions?: PositionIndex;
}

/**
 * Parses for analysis, not for running: a document being typed is often broken on the very line
 * the cursor is on, so when the whole text does not parse, that line is blanked and the rest
 * tried again. The result is only ever read; nothing runs from it.
 */
export function readAuthoringDocument(text: string, file: string, kind: AuthoringKind, cursor?: number): AuthoringDocument {
  const attempts = [text];
  if (cursor !== undefined) attempts.push(blankLine(text, cursor));
  for (const attempt of attempts) {
    try {
      const { value, positions } = parseYamlSafely(attempt, file);
      return { text, file, kind, value, positions };
    } catch {
      // try the next, more lenient reading
    }
  }
  return { text, file, kind, value: undefined };
}

function blankLine(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
}

/** The value at `path` in the raw document, if it is there. */
export function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = value;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The path of the step that `path` is in (`tool_chain[i]`, or one of its fallback steps), or
 * undefined outside any step. The longest match wins: a fallback step is a step of its own.
 */
export function enclosingStepPath(path: ReadonlyArray<string | number>): Array<string | number> | undefined {
  if (path[0] !== 'tool_chain' || typeof path[1] !== 'number') return undefined;
  let step: Array<string | number> = path.slice(0, 2);
  let i = 2;
  while (i < path.length) {
    if (path[i] === 'fallback') {
      const next = typeof path[i + 1] === 'number' ? path.slice(0, i + 2) : path.slice(0, i + 1);
      if (next.length > path.length) break;
      step = next;
      i = next.length;
    } else if (path[i] === 'on_error' && path[i + 1] === 'fallback') {
      const next = typeof path[i + 2] === 'number' ? path.slice(0, i + 3) : path.slice(0, i + 2);
      step = next;
      i = next.length;
    } else break;
  }
  return step;
}

/** `tool_chain[2].input.path` → ['tool_chain', 2, 'input', 'path'] (the inverse of formatFieldPath). */
export function parseFieldPath(field: string): Array<string | number> {
  const path: Array<string | number> = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) path.push(match[2] !== undefined ? Number(match[2]) : match[1]);
  return path;
}
