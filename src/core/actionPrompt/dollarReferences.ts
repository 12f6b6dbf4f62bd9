import type { PositionIndex } from '../yaml/yamlPositions';
import { type Diagnostic, formatFieldPath } from '../yaml/diagnostics';
import { positionInValue } from './positionInValue';

type FieldPath = Array<string | number>;

/**
 * `${topic}` in a CodeWiki template is valid syntax, a `$` followed by the reference `{topic}`,
 * so it used to load and quietly send "$" plus the value. Authors coming from seed 002's chains
 * (or from shells and JavaScript) write it by habit, so it is an error at the `${` with the
 * reference rewritten the CodeWiki way. `${{` is a literal `${` (braces doubled), not a reference.
 *
 * Walks the parsed YAML rather than the schema-checked definition so the problem is reported in
 * the same pass as schema errors; only fields that are templates are looked at.
 */
export function findDollarReferences(value: unknown, positions: PositionIndex, file: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  const root = asRecord(value);
  if (!root) return found;
  const steps = Array.isArray(root.tool_chain) ? root.tool_chain : [];
  const check = (template: unknown, path: FieldPath) => checkTemplate(template, path, steps, positions, file, found);

  steps.forEach((step, i) => checkStep(step, ['tool_chain', i], check));
  const final = asRecord(root.llm_prompt_template);
  if (final) {
    check(final.system, ['llm_prompt_template', 'system']);
    check(final.human, ['llm_prompt_template', 'human']);
  }
  check(root.output, ['output']);
  if (Array.isArray(root.llm_tools)) {
    root.llm_tools.forEach((tool, i) => {
      const record = asRecord(tool);
      check(record?.system, ['llm_tools', i, 'system']);
      check(record?.human, ['llm_tools', i, 'human']);
    });
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

function checkStep(step: unknown, path: FieldPath, check: (template: unknown, path: FieldPath) => void): void {
  const record = asRecord(step);
  if (!record) return;
  for (const field of ['input', 'condition', 'for_each']) check(record[field], [...path, field]);
  const fallbacks = (value: unknown, at: FieldPath) => {
    if (Array.isArray(value)) value.forEach((fb, i) => checkStep(fb, [...at, i], check));
    else checkStep(value, at, check);
  };
  fallbacks(record.fallback, [...path, 'fallback']);
  const onError = asRecord(record.on_error);
  if (onError) fallbacks(onError.fallback, [...path, 'on_error', 'fallback']);
}

/** Strings at any depth (a step's input may be a mapping or list of templates). */
function checkTemplate(template: unknown, path: FieldPath, steps: unknown[], positions: PositionIndex, file: string, found: Diagnostic[]): void {
  if (Array.isArray(template)) {
    template.forEach((item, i) => checkTemplate(item, [...path, i], steps, positions, file, found));
    return;
  }
  const record = asRecord(template);
  if (record) {
    for (const [key, item] of Object.entries(record)) checkTemplate(item, [...path, key], steps, positions, file, found);
    return;
  }
  if (typeof template !== 'string') return;
  for (const { inner, occurrence } of dollarReferencesIn(template)) {
    const written = `\${${inner}}`;
    found.push({
      file,
      ...positionInValue(positions, path, '${', occurrence),
      field: formatFieldPath(path),
      message: `"${written}": CodeWiki writes references as {name}, without "$"; write ${suggestion(inner, steps)} (as written, "$" would be sent to the model followed by the value)`,
      severity: 'error',
    });
  }
}

/**
 * Each `${…}` the template parser would read as a "$" and a reference, in order, with how many
 * `${` come before it in the string (literal `${{` ones included), to find it in the file.
 */
function dollarReferencesIn(template: string): Array<{ inner: string; occurrence: number }> {
  const found: Array<{ inner: string; occurrence: number }> = [];
  for (let i = 0; i < template.length; i++) {
    if ((template[i] === '{' && template[i + 1] === '{') || (template[i] === '}' && template[i + 1] === '}')) {
      i++;
    } else if (template[i] === '$' && template[i + 1] === '{' && template[i + 2] !== '{') {
      const close = template.indexOf('}', i + 2);
      const occurrence = template.slice(0, i).split('${').length - 1;
      found.push({ inner: template.slice(i + 2, close < 0 ? template.length : close).trim(), occurrence });
      if (close < 0) break;
      i = close;
    }
  }
  return found;
}

/** The CodeWiki spelling: `${input.topic}` → `{topic}`, `${steps.search.output.items}` → `{<search's output_variable>.items}`. */
function suggestion(inner: string, steps: unknown[]): string {
  const input = /^input\.(.+)$/.exec(inner);
  if (input) return `{${input[1]}}`;
  const step = /^steps\.([A-Za-z0-9_-]+)\.output(.*)$/.exec(inner);
  if (step) {
    const producer = steps.map(asRecord).find((s) => s && (s.id === step[1] || s.output_variable === step[1]));
    const name = typeof producer?.output_variable === 'string' ? producer.output_variable : step[1];
    return `{${name}${step[2]}}`;
  }
  if (/^env\./.test(inner)) return `an input for the value (CodeWiki templates do not read environment variables)`;
  return `{${inner}}`;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
