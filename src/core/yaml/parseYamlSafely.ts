import * as yaml from 'js-yaml';
import { ActionPromptError, type Diagnostic, formatFieldPath } from '../actionPrompt/diagnostics';
import { DEFAULT_YAML_LIMITS, FORBIDDEN_KEYS, type YamlLimits } from './yamlLimits';
import { PositionIndex, type ShadowNode } from './yamlPositions';

export interface ParsedYaml {
  value: unknown;
  positions: PositionIndex;
}

class YamlLimitExceeded extends Error {}

/**
 * Parses untrusted YAML (security.md #9): size cap, node and depth caps enforced while parsing,
 * alias expansion measured before the value is walked, forbidden keys rejected, and every
 * parser exception (including RangeError from deep nesting) turned into a located diagnostic.
 * CORE_SCHEMA keeps dates as strings and has no merge keys, so values are exactly what is written.
 */
export function parseYamlSafely(text: string, file: string, limits: YamlLimits = DEFAULT_YAML_LIMITS): ParsedYaml {
  const fail = (message: string, line = 1, column = 1, field = ''): never => {
    throw new ActionPromptError([{ file, line, column, field, message, severity: 'error' }]);
  };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) fail(`file is ${bytes} bytes; the limit is ${limits.maxBytes}`);

  const root: ShadowNode = { start: 0, end: text.length, kind: 'root', result: undefined, children: [] };
  const stack: ShadowNode[] = [root];
  let nodeCount = 0;
  let value: unknown;
  try {
    value = yaml.load(text, {
      filename: file,
      schema: yaml.CORE_SCHEMA,
      listener(event, state) {
        if (event === 'open') {
          if (++nodeCount > limits.maxNodes) throw new YamlLimitExceeded(`more than ${limits.maxNodes} YAML nodes`);
          if (stack.length > limits.maxDepth + 2) throw new YamlLimitExceeded(`nesting deeper than ${limits.maxDepth} levels`);
          const node: ShadowNode = { start: state.position, end: state.position, kind: '', result: undefined, children: [] };
          stack[stack.length - 1].children.push(node);
          stack.push(node);
        } else {
          const node = stack.pop();
          if (!node) return;
          node.end = state.position;
          node.kind = state.kind ?? '';
          node.result = state.result;
        }
      },
    });
  } catch (error) {
    if (error instanceof YamlLimitExceeded) fail(error.message);
    if (error instanceof RangeError) fail(`nesting too deep to parse (${error.message})`);
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    fail(`invalid YAML: ${reason}`, (mark?.line ?? 0) + 1, (mark?.column ?? 0) + 1);
  }

  const positions = new PositionIndex(text, root.children[0]);
  const problems = inspectValue(value, limits);
  if (problems.length) {
    throw new ActionPromptError(
      problems.map<Diagnostic>(({ path, message }) => ({
        file,
        ...positions.locate(path, true),
        field: formatFieldPath(path),
        message,
        severity: 'error',
      })),
    );
  }
  return { value, positions };
}

interface ValueProblem {
  path: Array<string | number>;
  message: string;
}

/** One memoised pass: expanded size (alias bombs), depth, and forbidden keys. */
function inspectValue(value: unknown, limits: YamlLimits): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const sizes = new Map<object, number>();
  const visit = (node: unknown, path: Array<string | number>): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (path.length > limits.maxDepth) {
      problems.push({ path, message: `nesting deeper than ${limits.maxDepth} levels` });
      return Infinity;
    }
    sizes.set(node, Infinity); // a cycle (self-referencing alias) counts as unbounded
    let size = 1;
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) problems.push({ path: [...path, key], message: `the key "${key}" is not allowed` });
      size += visit(child, [...path, key]);
      if (size > limits.maxExpandedNodes) break;
    }
    sizes.set(node, size);
    return size;
  };
  const total = visit(value, []);
  if (total > limits.maxExpandedNodes && !problems.length) {
    problems.push({ path: [], message: `the document expands to more than ${limits.maxExpandedNodes} nodes (alias bomb?)` });
  }
  return problems;
}
