import { JSONPath } from 'jsonpath-plus';

/**
 * Applies a step's `select` JSONPath to its tool output. jsonpath-plus's "safe" evaluator
 * runs filter expressions without `eval`. A path that can only match one place (no wildcard,
 * slice, union, filter or recursive descent) yields that value; any other path yields a list.
 */
export function selectOutput(output: unknown, path: string): unknown {
  const matches = JSONPath({ path, json: output as object, wrap: true, eval: 'safe' }) as unknown[];
  return isDefinitePath(path) ? matches[0] : matches;
}

function isDefinitePath(path: string): boolean {
  return !/\*|\.\.|\?\(|\(|,|:/.test(path);
}
