import type { PositionIndex } from '../../yaml/yamlPositions';
import { fieldNames, INPUT_FIELDS, INPUT_TYPES } from './dialectFields';
import type { DialectPathMap } from './dialectPositions';
import { asRecord, type DialectReport, rejectUnknownKeys } from './dialectReport';

/** A CodeWiki input_variables entry, before the schema checks it. */
export type InputVariableValue = Record<string, unknown> & { name: string };

const INPUT_KEYS = fieldNames(INPUT_FIELDS);

/**
 * Seed 002 declares inputs as `name: type` or `name: type=default` (`depth: number=3`,
 * `store_location: string="memory"`), with the comment after it as the description. A mapping
 * (`topic: {type: string, default: …, description: …, required: …}`) is accepted too.
 */
export function translateInputs(section: unknown, written: PositionIndex, paths: DialectPathMap, report: DialectReport): InputVariableValue[] {
  if (section === undefined || section === null) return [];
  const record = asRecord(section);
  if (!record) {
    report.error(['input'], 'input must be a mapping of name: type, e.g. "topic: string"');
    return [];
  }
  paths.add(['input_variables'], ['input']);
  return Object.entries(record).map(([name, spec], index) => {
    paths.add(['input_variables', index], ['input', name]);
    paths.add(['input_variables', index, 'name'], ['input', name]);
    const at = ['input', name];
    const mapping = asRecord(spec);
    if (mapping) {
      rejectUnknownKeys(mapping, INPUT_KEYS, at, 'in an input', report);
      for (const field of INPUT_KEYS) paths.add(['input_variables', index, field], [...at, field]);
      const type = typeOf(mapping.type ?? 'string', [...at, 'type'], report);
      return clean({ name, type, default: mapping.default, description: mapping.description, required: mapping.required });
    }
    if (typeof spec !== 'string') {
      report.error(at, `input "${name}" needs a type, e.g. "${name}: string" or "${name}: number=3"`);
      return { name };
    }
    const match = /^\s*([A-Za-z]+)\s*(?:=\s*(.*?))?\s*$/.exec(spec);
    if (!match) {
      report.error(at, `"${spec}" is not a type; write type or type=default, e.g. string, number=3, string="memory"`);
      return { name };
    }
    const type = typeOf(match[1], at, report);
    const fallback = match[2] === undefined ? undefined : parseDefault(match[2], type, at, report);
    return clean({ name, type, default: fallback, description: trailingComment(written, at) });
  });
}

function typeOf(type: unknown, at: Array<string | number>, report: DialectReport): string {
  const mapped = typeof type === 'string' ? INPUT_TYPES[type.toLowerCase()] : undefined;
  if (!mapped) report.error(at, `unknown input type "${String(type)}"; use one of ${Object.keys(INPUT_TYPES).join(', ')}`);
  return mapped ?? 'text';
}

function parseDefault(text: string, type: string, at: Array<string | number>, report: DialectReport): unknown {
  if (type === 'number') {
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) report.error(at, `the default "${text}" is not a number`);
    return value;
  }
  if (type === 'boolean') {
    if (!/^(true|false)$/i.test(text)) report.error(at, `the default "${text}" is not true or false`);
    return /^true$/i.test(text);
  }
  const quoted = /^"(?:[^"\\]|\\.)*"$/.test(text) ? (JSON.parse(text) as string) : /^'(.*)'$/.exec(text)?.[1];
  return quoted ?? text;
}

/** `topic: string        # 研究主题` → "研究主题": the seed documents its inputs in comments. */
function trailingComment(written: PositionIndex, at: Array<string | number>): string | undefined {
  const { line, column } = written.locate(at);
  const text = written.text.split('\n')[line - 1]?.slice(column - 1) ?? '';
  const comment = /\s#\s?(.*)$/.exec(text)?.[1]?.trim();
  return comment || undefined;
}

function clean(input: Record<string, unknown> & { name: string }): InputVariableValue {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as InputVariableValue;
}
