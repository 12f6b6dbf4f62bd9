import * as yaml from 'js-yaml';
import { ActionPromptError, type Diagnostic, formatFieldPath } from './diagnostics';
import { ExpansionMeter } from './aliasExpansion';
import { DEFAULT_YAML_LIMITS, FORBIDDEN_KEYS, type YamlLimits } from './yamlLimits';
import { PositionIndex, type ShadowNode } from './yamlPositions';

export interface ParsedYaml {
  value: unknown;
  /** Positions in the text as parsed: without a leading byte-order mark, which editors do not show either. */
  positions: PositionIndex;
}

/** js-yaml's listener state as it is at run time: @types/js-yaml omits `tag` and types `kind` as never null. */
type ListenerState = yaml.State & { kind: string | null; tag: string | null };

/** A limit crossed while parsing, at the node being read when it was (offsets into the text). */
class YamlLimitExceeded extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

/**
 * Parses untrusted YAML (security.md #9): size cap, node and depth caps, and the size aliases
 * expand to, all enforced while parsing; forbidden keys rejected, and every parser exception
 * (including RangeError from deep nesting) turned into a located diagnostic.
 * CORE_SCHEMA keeps dates as strings and has no merge keys, so values are exactly what is written.
 */
export function parseYamlSafely(source: string, file: string, limits: YamlLimits = DEFAULT_YAML_LIMITS): ParsedYaml {
  const fail = (message: string, line = 1, column = 1, field = ''): never => {
    throw new ActionPromptError([{ file, line, column, field, message, severity: 'error' }]);
  };
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxBytes) fail(`file is ${bytes} bytes; the limit is ${limits.maxBytes}`);
  // js-yaml drops a leading BOM itself; dropping it here keeps its offsets and ours the same.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;

  const root: ShadowNode = { start: 0, end: text.length, kind: 'root', result: undefined, children: [] };
  const stack: ShadowNode[] = [root];
  const expansion = new ExpansionMeter(limits);
  let nodeCount = 0;
  let value: unknown;
  try {
    value = yaml.load(text, {
      filename: file,
      schema: yaml.CORE_SCHEMA,
      listener(event, state) {
        if (event === 'open') {
          const at = state.position;
          if (++nodeCount > limits.maxNodes) throw new YamlLimitExceeded(`more than ${limits.maxNodes} YAML nodes`, at, text.length);
          if (stack.length > limits.maxDepth + 2) throw new YamlLimitExceeded(`nesting deeper than ${limits.maxDepth} levels`, at, text.length);
          const node: ShadowNode = { start: at, end: at, kind: '', result: undefined, children: [] };
          stack[stack.length - 1].children.push(node);
          stack.push(node);
          expansion.opened();
        } else {
          const node = stack.pop();
          if (!node) return;
          node.end = state.position;
          node.kind = state.kind ?? '';
          node.result = state.result;
          const { kind, tag, result } = state as ListenerState;
          const problem = expansion.closed(kind, tag, result);
          if (problem) throw new YamlLimitExceeded(problem, node.start, node.end);
        }
      },
    });
  } catch (error) {
    if (error instanceof YamlLimitExceeded) {
      const { line, column } = new PositionIndex(text, undefined).positionOfSpan(error.start, error.end);
      fail(error.message, line, column);
    }
    if (error instanceof RangeError) fail(`nesting too deep to parse (${error.message})`);
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    fail(`invalid YAML: ${reason}`, (mark?.line ?? 0) + 1, (mark?.column ?? 0) + 1);
  }

  const positions = new PositionIndex(text, root.children[0]);
  const problems = forbiddenKeys(value);
  if (problems.length) {
    throw new ActionPromptError(
      problems.map<Diagnostic>((path) => ({
        file,
        ...positions.locate(path, true),
        field: formatFieldPath(path),
        message: `the key "${path[path.length - 1]}" is not allowed`,
        severity: 'error',
      })),
    );
  }
  return { value, positions };
}

/**
 * Paths of keys that could reach a prototype. Each collection is visited once, so an aliased one
 * is reported where it is first met; the parse has already bounded how deep this recursion goes.
 */
function forbiddenKeys(value: unknown): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  const seen = new Set<object>();
  const visit = (node: unknown, path: Array<string | number>): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) found.push([...path, key]);
      visit(child, [...path, key]);
    }
  };
  visit(value, []);
  return found;
}
