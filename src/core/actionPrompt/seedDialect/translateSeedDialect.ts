import { basename, extname } from 'node:path';
import type { PositionIndex } from '../../yaml/yamlPositions';
import type { Diagnostic } from '../../yaml/diagnostics';
import { fieldNames, STEP_FIELDS, STEP_OUTPUT_FIELDS, TOP_LEVEL_FIELDS } from './dialectFields';
import type { DialectOptions } from './dialectOptions';
import { DialectPathMap, DialectPositions, type FieldPath } from './dialectPositions';
import { type DialectScope, translateCondition } from './dialectReferences';
import { asRecord, DialectReport, rejectUnknownKeys } from './dialectReport';
import { type ErrorHandling, type FallbackEntry, readErrorHandling, stepPolicy } from './seedErrorHandling';
import { translateInputs } from './seedInputs';

const TOP_LEVEL_KEYS = fieldNames(TOP_LEVEL_FIELDS);
const STEP_KEYS = fieldNames(STEP_FIELDS);
const STEP_OUTPUT_KEYS = fieldNames(STEP_OUTPUT_FIELDS);

/** A file in seed 002's dialect: it has `steps:` (CodeWiki's own format has `tool_chain:`). */
export function isSeedDialect(value: unknown): value is Record<string, unknown> {
  const record = asRecord(value);
  return record !== undefined && 'steps' in record && !('tool_chain' in record);
}

export interface TranslatedPrompt {
  /** The chain in CodeWiki's action-prompt shape, for the schema and the compiler. */
  value: Record<string, unknown>;
  positions: DialectPositions;
  diagnostics: Diagnostic[];
}

interface StepHead {
  record: Record<string, unknown>;
  seedId: string;
  id: string;
  variable: string;
}

/**
 * Translates a seed-002 chain (ClawOS's tool-chain format) into the CodeWiki action-prompt shape,
 * so the same schema, compiler and executor run it. Every construct either has a CodeWiki
 * equivalent or is an error naming it; nothing is dropped quietly. Problems are collected, not
 * thrown, so they are listed together with the schema's.
 */
export function translateSeedDialect(value: Record<string, unknown>, written: PositionIndex, file: string, options: DialectOptions): TranslatedPrompt {
  const report = new DialectReport(written, file);
  const paths = new DialectPathMap();
  rejectUnknownKeys(value, TOP_LEVEL_KEYS, [], 'at the top of a seed-002 chain', report);
  for (const key of ['title', 'description', 'version', 'output']) paths.add([key], [key === 'title' ? 'name' : key]);

  const title = typeof value.name === 'string' && value.name.trim() ? value.name : undefined;
  const id = basename(file, extname(file));
  if (!title) report.error(['name'], 'a seed-002 chain needs a name');
  else if (title !== id)
    report.warning(['name'], `CodeWiki knows a prompt by its file name: this chain runs, and other prompts call it, as "${id}", not "${title}"`);

  const inputs = translateInputs(value.input, written, paths, report);
  const heads = readStepHeads(value.steps, paths, report);
  const scope: DialectScope = {
    declaredInputs: value.input === undefined || value.input === null ? undefined : new Set(inputs.map((input) => input.name)),
    implicitInputs: new Map(),
    stepVariables: new Map(heads.map((head) => [head.seedId, head.variable])),
    options,
  };

  const chainHandling = readErrorHandling(value.error_handling, ['error_handling'], report);
  const toolChain = heads.map((head, index) => translateStep(head, index, chainHandling, scope, paths, report));
  checkFallbackTargets(chainHandling, heads, report);

  const translated: Record<string, unknown> = { title: title ?? id, input_variables: [...inputs], tool_chain: toolChain };
  if (value.description !== undefined) translated.description = value.description;
  if (value.version !== undefined) translated.version = value.version;
  if (value.output !== undefined) translated.output = report.template(value.output, ['output'], scope);
  for (const [name, { from }] of scope.implicitInputs) {
    paths.add(['input_variables', (translated.input_variables as unknown[]).length], ['steps']);
    (translated.input_variables as unknown[]).push(from === 'context' ? { name, description: `Context value (\${context.${name}} in the chain)` } : { name });
  }
  const diagnostics = [...report.diagnostics].sort((a, b) => a.line - b.line || a.column - b.column);
  return { value: translated, positions: new DialectPositions(written, paths), diagnostics };
}

/** Ids first, so a step may read a later step's output (the order comes from the dependencies, as in the seed). */
function readStepHeads(steps: unknown, paths: DialectPathMap, report: DialectReport): StepHead[] {
  paths.add(['tool_chain'], ['steps']);
  if (!Array.isArray(steps)) {
    report.error(['steps'], 'steps must be a list of steps, each with an id and a tool');
    return [];
  }
  const byCodewikiId = new Map<string, string>();
  return steps.flatMap<StepHead>((raw, index) => {
    const at = ['steps', index];
    const record = asRecord(raw);
    if (!record) {
      report.error(at, 'a step is a mapping with id, tool and params');
      return [];
    }
    if (typeof record.id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(record.id)) {
      report.error(
        record.id === undefined ? at : [...at, 'id'],
        'a step needs an id of letters, digits, _ and - (other steps read its output as ${steps.<id>.output})',
      );
      return [];
    }
    const seedId = record.id;
    const id = /^[0-9]/.test(seedId) ? `step_${seedId.replace(/-/g, '_')}` : seedId.replace(/-/g, '_');
    const clash = byCodewikiId.get(id);
    if (clash !== undefined)
      report.error(
        [...at, 'id'],
        clash === seedId ? `two steps have the id "${seedId}"` : `the ids "${clash}" and "${seedId}" are both "${id}" in CodeWiki, which writes - as _`,
      );
    byCodewikiId.set(id, seedId);
    const output = asRecord(record.output);
    const variable = typeof output?.as === 'string' ? output.as : id;
    return [{ record, seedId, id, variable }];
  });
}

function translateStep(
  head: StepHead,
  index: number,
  chainHandling: ErrorHandling | undefined,
  scope: DialectScope,
  paths: DialectPathMap,
  report: DialectReport,
): Record<string, unknown> {
  const { record } = head;
  const from = ['steps', index];
  const to = ['tool_chain', index];
  rejectUnknownKeys(record, STEP_KEYS, from, 'in a step', report);
  const map = (field: string, source: FieldPath) => paths.add([...to, field], source);
  paths.add(to, from);
  map('id', [...from, 'id']);
  map('tool', [...from, 'tool']);
  const step: Record<string, unknown> = { id: head.id, tool: record.tool };
  if (record.tool === undefined) report.error(from, `step "${head.seedId}" needs a tool`);

  if (record.params !== undefined) {
    step.input = report.template(record.params, [...from, 'params'], scope);
    map('input', [...from, 'params']);
  }
  step.output_variable = head.variable;
  map('output_variable', record.output !== undefined ? [...from, 'output', 'as'] : [...from, 'id']);
  if (record.output !== undefined) {
    const output = asRecord(record.output);
    if (!output) report.error([...from, 'output'], 'a step\'s output is a mapping: { as: name, select: "$.json.path" }');
    else {
      rejectUnknownKeys(output, STEP_OUTPUT_KEYS, [...from, 'output'], "in a step's output", report);
      if (output.select !== undefined) step.select = output.select;
      map('select', [...from, 'output', 'select']);
    }
  }
  if (record.condition !== undefined) {
    map('condition', [...from, 'condition']);
    if (typeof record.condition !== 'string') report.error([...from, 'condition'], 'a condition is a string, e.g. "${steps.search.output.size > 0}"');
    else {
      const { text, errors } = translateCondition(record.condition, scope);
      report.referenceErrors(errors, [...from, 'condition']);
      step.condition = text;
    }
  }

  const own = readErrorHandling(record.error_handling, [...from, 'error_handling'], report);
  const handling = own ?? chainHandling;
  if (handling) {
    const fallbacks = handling.fallbacks.filter((entry) => entry.target === undefined || entry.target === head.seedId);
    if (own)
      for (const entry of own.fallbacks)
        if (entry.target !== undefined && entry.target !== head.seedId)
          report.error([...entry.path, 'condition'], `this fallback is under step "${head.seedId}" but names step "${entry.target}"`);
    Object.assign(step, stepPolicy(handling, fallbacks));
    map('retry', handling.path);
    map('on_error', [...handling.path, 'strategy']);
    if (step.on_error === 'fallback') {
      map('fallback', [...handling.path, 'fallback']);
      step.fallback = fallbacks.map((entry, i) => translateFallback(entry, [...to, 'fallback', i], { ...scope, fallbackOf: head.seedId }, paths, report));
    }
  }
  return step;
}

function translateFallback(entry: FallbackEntry, to: FieldPath, scope: DialectScope, paths: DialectPathMap, report: DialectReport): Record<string, unknown> {
  paths.add(to, entry.path);
  paths.add([...to, 'input'], [...entry.path, 'params']);
  if (entry.record.tool === undefined) report.error(entry.path, 'a fallback needs a tool');
  const fallback: Record<string, unknown> = { tool: entry.record.tool };
  if (entry.record.params !== undefined) fallback.input = report.template(entry.record.params, [...entry.path, 'params'], scope);
  return fallback;
}

/** A chain-level fallback must name a step that exists and that has no error_handling of its own (which would win). */
function checkFallbackTargets(handling: ErrorHandling | undefined, heads: StepHead[], report: DialectReport): void {
  for (const entry of handling?.fallbacks ?? []) {
    if (entry.target === undefined) continue;
    const head = heads.find((h) => h.seedId === entry.target);
    if (!head) report.error([...entry.path, 'condition'], `there is no step "${entry.target}" (steps: ${heads.map((h) => h.seedId).join(', ') || 'none'})`);
    else if (head.record.error_handling !== undefined)
      report.error([...entry.path, 'condition'], `step "${entry.target}" has its own error_handling, which replaces the chain's; put this fallback there`);
  }
}
