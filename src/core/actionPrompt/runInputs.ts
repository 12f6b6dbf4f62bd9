import type { CompiledActionPrompt, CompiledInput } from './compiledActionPrompt';
import { ActionPromptError, type Diagnostic, formatFieldPath } from '../yaml/diagnostics';

/** Confines `path` inputs; the Workspace provides it. */
export interface PathChecker {
  resolve(userPath: string): Promise<{ relative: string; root: string; absolute: string }>;
  /** How the file tools write it, so the prompt's steps find it again (`lib/…` in the workspace's folder lib). */
  displayPath(target: { relative: string; root: string; absolute: string }): string;
}

/**
 * Declared inputs the caller left out, filled with their defaults (or empty), so every
 * declared name is defined when the chain runs even if the caller skipped resolveRunInputs.
 */
export function withInputDefaults(prompt: CompiledActionPrompt, given: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const input of prompt.inputs) values[input.name] = input.default ?? (input.type === 'boolean' ? false : '');
  return { ...values, ...given };
}

export function missingRequiredInputs(prompt: CompiledActionPrompt, given: Record<string, unknown>): CompiledInput[] {
  return prompt.inputs.filter((input) => input.required && input.default === undefined && isBlank(given[input.name]));
}

/**
 * Checks and converts the values a user gave (CLI strings, form values) against the prompt's
 * `input_variables`, before anything runs. Every problem names the prompt file, the line where
 * the input is declared and the input, so a user can see what is expected.
 */
export async function resolveRunInputs(prompt: CompiledActionPrompt, given: Record<string, unknown>, paths?: PathChecker): Promise<Record<string, unknown>> {
  const problems: Diagnostic[] = [];
  const problem = (input: CompiledInput | undefined, message: string) =>
    problems.push({
      file: prompt.file,
      ...(input ? prompt.positions.locate(input.fieldPath) : { line: 1, column: 1 }),
      field: input ? `${formatFieldPath(input.fieldPath)} (${input.name})` : 'input_variables',
      message,
      severity: 'error',
    });

  for (const name of Object.keys(given)) {
    if (!prompt.inputs.some((i) => i.name === name))
      problem(undefined, `unknown input "${name}"; this prompt takes: ${prompt.inputs.map((i) => i.name).join(', ') || '(none)'}`);
  }
  const values: Record<string, unknown> = {};
  for (const input of prompt.inputs) {
    const raw = isBlank(given[input.name]) ? input.default : given[input.name];
    if (raw === undefined) {
      if (input.required) problem(input, `the required input "${input.name}" is missing${input.description ? ` (${input.description})` : ''}`);
      else if (input.type === 'boolean') values[input.name] = false;
      else values[input.name] = '';
      continue;
    }
    try {
      values[input.name] = await convert(input, raw, paths);
    } catch (error) {
      problem(input, `input "${input.name}": ${(error as Error).message}`);
    }
  }
  if (problems.length) throw new ActionPromptError(problems);
  return values;
}

async function convert(input: CompiledInput, raw: unknown, paths: PathChecker | undefined): Promise<unknown> {
  switch (input.type) {
    case 'number': {
      const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(value)) throw new Error(`expected a number, got ${JSON.stringify(raw)}`);
      return value;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase();
      if (['true', 'yes', 'y', '1', 'on'].includes(text)) return true;
      if (['false', 'no', 'n', '0', 'off'].includes(text)) return false;
      throw new Error(`expected true or false, got ${JSON.stringify(raw)}`);
    }
    case 'select': {
      const match = input.options!.find((option) => String(option) === String(raw));
      if (match === undefined) throw new Error(`expected one of ${input.options!.map((o) => JSON.stringify(o)).join(', ')}, got ${JSON.stringify(raw)}`);
      return match;
    }
    case 'path': {
      const text = String(raw);
      if (!paths) return text;
      return paths.displayPath(await paths.resolve(text));
    }
    default:
      return typeof raw === 'string' ? raw : String(raw);
  }
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
