/**
 * The keys seed 002's dialect takes, where it takes them: the translator accepts exactly these, and the editor offers
 * them (src/core/authoring/dialectCompletions.ts), so the two cannot disagree.
 */
export interface DialectField {
  name: string;
  description: string;
  required?: boolean;
}

export const TOP_LEVEL_FIELDS: readonly DialectField[] = [
  { name: 'name', required: true, description: "The chain's name (CodeWiki's title). The prompt's id stays its file name." },
  { name: 'description', description: 'What the chain does; shown in the prompt picker.' },
  { name: 'version', description: "Kept as the prompt's version." },
  { name: 'metadata', description: 'Accepted as documentation, not used.' },
  { name: 'input', description: 'The inputs, one per line: `topic: string`, `depth: number=3`; the comment after an input is its description.' },
  { name: 'steps', required: true, description: 'The steps, each with an `id`, a `tool` and its `params`; later steps read `${steps.<id>.output}`.' },
  { name: 'output', description: "The result: a template, or a mapping of templates, reading `${steps.<id>.output}`. Default: the last step's output." },
  { name: 'error_handling', description: 'For every step without its own: `strategy: retry`, `fallback` or `abort`.' },
];

export const STEP_FIELDS: readonly DialectField[] = [
  { name: 'id', required: true, description: 'Names the step; other steps read its output as `${steps.<id>.output}`.' },
  { name: 'tool', required: true, description: 'A built-in tool or another action prompt by file name.' },
  { name: 'params', description: "The tool's parameters; strings may read `${input.x}`, `${steps.<id>.output…}`, `${context.x}`, `${env.X}`." },
  { name: 'output', description: '`as`: the name the output is kept under; `select`: a JSONPath applied to it.' },
  { name: 'condition', description: 'Run the step only when this is true, e.g. `"${steps.search.output.size > 0}"`.' },
  { name: 'error_handling', description: "This step's own handling; replaces the chain's." },
];

export const STEP_OUTPUT_FIELDS: readonly DialectField[] = [
  { name: 'as', description: 'The variable the output is kept under (default: the step id).' },
  { name: 'select', description: 'A JSONPath applied to the tool output, e.g. `"$.matches[*]"`.' },
];

export const INPUT_FIELDS: readonly DialectField[] = [
  { name: 'type', description: 'string, number, boolean, multiline or path (and their aliases).' },
  { name: 'default', description: 'The value when none is given; makes the input optional.' },
  { name: 'description', description: 'Shown as the field label and help text.' },
  { name: 'required', description: 'Defaults to true unless a default is given.' },
];

export const ERROR_HANDLING_FIELDS: readonly DialectField[] = [
  { name: 'strategy', required: true, description: '`retry`, `fallback` or `abort`.' },
  { name: 'fallback', description: 'With `strategy: fallback`: steps (`tool`, `params`) run instead of a failed one.' },
  { name: 'attempts', description: 'With `strategy: retry`: total attempts, the first included (default 3).' },
  { name: 'backoff', description: 'With `strategy: retry`: the wait before the second attempt, doubling each time.' },
];

export const FALLBACK_FIELDS: readonly DialectField[] = [
  { name: 'condition', description: 'At chain level, `"${steps.<id>.error}"`: the step whose failure this handles (none: every step).' },
  { name: 'tool', description: 'The tool to run instead.' },
  { name: 'params', description: "Its parameters; `${steps.<id>.error}` is the failed step's error." },
];

export const STRATEGIES = ['abort', 'retry', 'fallback'] as const;

/** Seed input types and the CodeWiki input type each becomes. */
export const INPUT_TYPES: Readonly<Record<string, string>> = {
  string: 'text',
  str: 'text',
  text: 'text',
  multiline: 'multiline',
  path: 'path',
  number: 'number',
  integer: 'number',
  int: 'number',
  float: 'number',
  boolean: 'boolean',
  bool: 'boolean',
};

export function fieldNames(fields: readonly DialectField[]): string[] {
  return fields.map((field) => field.name);
}

/**
 * The fields of the mapping at `path` in a seed-002 file; undefined where the keys are the author's own (input names,
 * `params`, `metadata`, an `output` mapping).
 */
export function dialectFieldsAt(path: ReadonlyArray<string | number>): readonly DialectField[] | undefined {
  if (path.length === 0) return TOP_LEVEL_FIELDS;
  if (path.length === 2 && path[0] === 'input') return INPUT_FIELDS;
  const inStep = path[0] === 'steps' && typeof path[1] === 'number';
  if (inStep && path.length === 2) return STEP_FIELDS;
  if (inStep && path.length === 3 && path[2] === 'output') return STEP_OUTPUT_FIELDS;
  const handling = path[0] === 'error_handling' ? path.slice(1) : inStep && path[2] === 'error_handling' ? path.slice(3) : undefined;
  if (!handling) return undefined;
  if (handling.length === 0) return ERROR_HANDLING_FIELDS;
  const [fallback, index, ...rest] = handling;
  if (fallback !== 'fallback') return undefined;
  if (index === undefined || (typeof index === 'number' && rest.length === 0)) return FALLBACK_FIELDS;
  return undefined;
}
