import { JSONPath } from 'jsonpath-plus';

/**
 * Checks a step's `select` before anything runs. jsonpath-plus accepts almost any string (`$.files[`
 * quietly means `$.files`), so a typo would only ever show up as an empty value at run time. This
 * walks the path grammar jsonpath-plus supports: `$`, then `.name`, `.*`, `..name`, `..*` and
 * brackets holding `*`, an index, a slice, a quoted key, a union, `?(filter)` or `(script)`.
 * Filter and script expressions are parsed by the same safe evaluator that runs them.
 * Returns why the path is malformed, or undefined when it is fine.
 */
export function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return `a JSONPath starts with "$", e.g. "$.files[*].path"`;
  let i = 1;
  while (i < path.length) {
    const at = i;
    if (path.startsWith('..', i)) {
      i += 2;
      if (path[i] === '[') continue;
      const end = nameEnd(path, i);
      if (end === i) return malformed(path, at, 'expected a name, "*" or "[" after ".."');
      i = end;
    } else if (path[i] === '.') {
      i += 1;
      const end = nameEnd(path, i);
      if (end === i) return malformed(path, at, 'expected a name or "*" after "."');
      i = end;
    } else if (path[i] === '[') {
      const close = bracketEnd(path, i);
      if (close < 0) return malformed(path, at, 'unclosed "["');
      const problem = bracketProblem(path.slice(i + 1, close).trim());
      if (problem) return malformed(path, at, problem);
      i = close + 1;
    } else {
      return malformed(path, at, `unexpected "${path[i]}"`);
    }
  }
  return undefined;
}

function malformed(path: string, offset: number, why: string): string {
  return `"${path}" is not a valid JSONPath: ${why} at character ${offset + 1}`;
}

/** A member name, or `*`. */
function nameEnd(path: string, from: number): number {
  if (path[from] === '*') return from + 1;
  let i = from;
  while (i < path.length && /[A-Za-z0-9_$\-@]/.test(path[i])) i++;
  return i;
}

/** The index of the `]` closing the bracket at `open`, skipping quoted text and parentheses; -1 if none. */
function bracketEnd(path: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open + 1; i < path.length; i++) {
    const ch = path[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ']' && depth === 0) return i;
  }
  return -1;
}

const INDEX = /^-?\d+$/;
const SLICE = /^(-?\d+)?:(-?\d+)?(:(-?\d+)?)?$/;
const QUOTED = /^(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")$/;

function bracketProblem(inner: string): string | undefined {
  if (inner === '') return 'empty "[]"';
  if (inner === '*' || INDEX.test(inner) || SLICE.test(inner) || QUOTED.test(inner)) return undefined;
  if (inner.startsWith('?(') || inner.startsWith('(')) {
    if (!inner.endsWith(')')) return `"${inner}" must end with ")"`;
    return expressionProblem(inner.startsWith('?') ? inner : `?${inner}`);
  }
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.length > 1 && parts.every((p) => INDEX.test(p) || QUOTED.test(p) || /^[A-Za-z_$][\w$-]*$/.test(p))) return undefined;
  if (/^[A-Za-z_$][\w$-]*$/.test(inner)) return undefined; // jsonpath-plus reads a bare [name] as a key
  return `"[${inner}]" must hold *, an index, a slice, a quoted key, a list of those, or ?(filter)`;
}

/** Runs the filter once on a probe item: the safe evaluator parses it then, and throws on bad syntax. */
function expressionProblem(filter: string): string | undefined {
  try {
    JSONPath({ path: `$[${filter}]`, json: [{}], wrap: true, eval: 'safe' });
    return undefined;
  } catch (error) {
    return `the expression "${filter}" does not parse (${(error as Error).message})`;
  }
}
