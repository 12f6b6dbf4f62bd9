/**
 * Reading seed 002's references: `input.x`, `context.x`, `env.X`, `steps.<id>.output…` and
 * `steps.<id>.error`, followed by `.name`, `[0]`, `["key"]` or `[*]`. Step ids may contain `-`
 * (`steps.step-1.output`), so they are read before any expression operator is considered.
 */

export type PathPart = { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'key'; key: string } | { kind: 'wildcard' };

export interface Chain {
  /** The text it was read from, for messages and for finding it in the file. */
  source: string;
  end: number;
  root: 'input' | 'context' | 'steps' | 'env';
  /** The input, context or env name, or the step id. */
  name: string;
  /** For steps: "output" or "error". */
  field?: string;
  path: PathPart[];
}

export const ROOTS = new Set(['input', 'context', 'steps', 'env']);
export const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const STEP_ID = /[A-Za-z0-9_-]+/y;

/** Reads `root.name…` starting at `start`; undefined when it is not a chain at all. */
export function readChain(text: string, start: number): Chain | undefined {
  IDENTIFIER.lastIndex = start;
  const root = IDENTIFIER.exec(text)?.[0];
  if (!root || !ROOTS.has(root) || text[start + root.length] !== '.') return undefined;
  let i = start + root.length + 1;
  const name = root === 'steps' ? STEP_ID : IDENTIFIER;
  name.lastIndex = i;
  const head = name.exec(text)?.[0];
  if (!head) return undefined;
  i += head.length;
  let field: string | undefined;
  if (root === 'steps') {
    IDENTIFIER.lastIndex = i + 1;
    field = text[i] === '.' ? IDENTIFIER.exec(text)?.[0] : undefined;
    if (field) i += 1 + field.length;
  }
  const path: PathPart[] = [];
  while (i < text.length) {
    if (text[i] === '.') {
      IDENTIFIER.lastIndex = i + 1;
      const part = IDENTIFIER.exec(text)?.[0];
      if (!part) break;
      path.push({ kind: 'name', name: part });
      i += 1 + part.length;
    } else if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) break;
      const part = bracketPart(text.slice(i + 1, close).trim());
      if (!part) break;
      path.push(part);
      i = close + 1;
    } else break;
  }
  return { source: text.slice(start, i), end: i, root: root as Chain['root'], name: head, field, path };
}

function bracketPart(inner: string): PathPart | undefined {
  if (inner === '*') return { kind: 'wildcard' };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const quoted = /^(["'])(.*)\1$/.exec(inner);
  return quoted ? { kind: 'key', key: quoted[2] } : undefined;
}

/** The `}` closing a `${`, skipping quoted strings (a key such as ["a}b"]). */
export function closingBrace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '"' || text[i] === "'") i = stringEnd(text, i) - 1;
    else if (text[i] === '}') return i;
  }
  return -1;
}

export function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  return text.length;
}
