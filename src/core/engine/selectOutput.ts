import { JSONPath } from 'jsonpath-plus';

export interface Selected {
  value: unknown;
  /** False when the path found nothing: the value is then null (a definite path) or [] (any other). */
  matched: boolean;
}

/**
 * Applies a step's `select` JSONPath to its tool output. jsonpath-plus's "safe" evaluator
 * runs filter expressions without `eval`. A path that can only match one place (no wildcard,
 * slice, union, filter or recursive descent) yields that value; any other path yields a list.
 */
export function selectOutput(output: unknown, path: string): Selected {
  const matches = JSONPath({ path, json: output as object, wrap: true, eval: 'safe' }) as unknown[];
  if (!isDefinitePath(path)) return { value: matches, matched: matches.length > 0 };
  return matches.length > 0 && matches[0] !== undefined ? { value: matches[0], matched: true } : { value: null, matched: false };
}

function isDefinitePath(path: string): boolean {
  return !/\*|\.\.|\?\(|\(|,|:/.test(path);
}
