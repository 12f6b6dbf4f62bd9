import { parseTemplate, type PathPart, type Reference } from './templateParser';
import { renderValue } from '../values/renderValue';

export type Variables = ReadonlyMap<string, unknown>;

export class UndefinedReferenceError extends Error {
  constructor(
    readonly reference: Reference,
    why: string,
  ) {
    super(`{${reference.source}}: ${why}`);
    this.name = 'UndefinedReferenceError';
  }
}

/**
 * Resolves a template value. A string that is exactly one reference yields the raw value (a
 * list stays a list); other strings are interpolated text; objects and lists are resolved
 * member by member, so a step's `input` can be any shape.
 */
export function resolveTemplateValue(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') return resolveTemplateString(value, variables);
  if (Array.isArray(value)) return value.map((item) => resolveTemplateValue(item, variables));
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = resolveTemplateValue(item, variables);
    return result;
  }
  return value;
}

export function resolveTemplateString(template: string, variables: Variables): unknown {
  const parsed = parseTemplate(template);
  if (parsed.soleReference) return lookupReference(parsed.soleReference, variables);
  return parsed.segments.map((s) => (s.kind === 'text' ? s.text : renderValue(lookupReference(s.ref, variables)))).join('');
}

function lookupReference(ref: Reference, variables: Variables): unknown {
  if (!variables.has(ref.variable)) {
    if (ref.fallback) return ref.fallback.value;
    throw new UndefinedReferenceError(ref, `"${ref.variable}" is not defined`);
  }
  const value = followPath(variables.get(ref.variable), ref.path, ref);
  return ref.fallback && (value === null || value === undefined) ? ref.fallback.value : value;
}

function followPath(start: unknown, path: PathPart[], ref: Reference): unknown {
  let current = start;
  for (const part of path) {
    if (current === null || current === undefined) return undefined;
    if (part === 'length' && (typeof current === 'string' || Array.isArray(current))) {
      current = current.length;
      continue;
    }
    if (typeof current !== 'object') throw new UndefinedReferenceError(ref, `cannot read "${part}" of a ${typeof current}`);
    const index = typeof part === 'number' && part < 0 && Array.isArray(current) ? current.length + part : part;
    // Own properties only: a template must never reach prototypes.
    current = Object.prototype.hasOwnProperty.call(current, index) ? (current as Record<PathPart, unknown>)[index] : undefined;
  }
  return current;
}
