import type { PromptRunMessage, ChatMessage, PromptInputField, PromptSummary } from '../../src/shared/protocol';
import type { FormValue } from './state';

export type InputValue = string | number | boolean;

export type FormCheck = { ok: true; inputs: Record<string, InputValue> } | { ok: false; errors: Record<string, string> };

/** The values a fresh form starts with: the prompt's defaults, as the controls hold them. */
export function initialValues(prompt: PromptSummary): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of prompt.inputs) {
    if (field.type === 'boolean') values[field.name] = field.default === true || field.default === 'true';
    else values[field.name] = field.default === undefined ? '' : String(field.default);
  }
  return values;
}

/**
 * Turns control values into typed inputs (numbers as numbers, booleans as booleans, a select's
 * option with its own type) or one plain-words error per field. Empty optional fields are left out
 * so the host applies the prompt's own default.
 */
export function checkForm(prompt: PromptSummary, values: Record<string, FormValue>): FormCheck {
  const inputs: Record<string, InputValue> = {};
  const errors: Record<string, string> = {};
  for (const field of prompt.inputs) {
    const result = checkField(field, values[field.name]);
    if ('error' in result) errors[field.name] = result.error;
    else if (result.value !== undefined) inputs[field.name] = result.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, inputs };
}

type FieldResult = { value: InputValue | undefined } | { error: string };

function checkField(field: PromptInputField, raw: FormValue | undefined): FieldResult {
  if (field.type === 'boolean') {
    const value = toBoolean(raw ?? false);
    return value === undefined ? { error: `${field.label} must be true or false.` } : { value };
  }
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : String(raw);
  if (text.trim() === '') return field.required ? { error: `${field.label} is required.` } : { value: undefined };
  if (field.type === 'number') {
    const value = Number(text.trim());
    return Number.isFinite(value) ? { value } : { error: `${field.label} must be a number.` };
  }
  if (field.type === 'select') {
    const option = (field.options ?? []).find((o) => String(o) === text);
    return option === undefined ? { error: `${field.label} must be one of: ${(field.options ?? []).join(', ')}.` } : { value: option };
  }
  return { value: field.type === 'path' ? text.trim() : text };
}

/** Accepts the spellings people type after `/agent id flag=…`; undefined when it is none of them. */
export function toBoolean(raw: FormValue): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  const word = raw.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(word)) return true;
  if (['false', 'no', 'off', '0', ''].includes(word)) return false;
  return undefined;
}

/** Fills a form from `/agent id name=value …`: named values first, then bare words into the remaining required fields. */
export function valuesFromCommand(
  prompt: PromptSummary,
  named: Record<string, string>,
  positional: string[],
): { values: Record<string, FormValue>; unknown: string[] } {
  const values = initialValues(prompt);
  const given = new Set<string>();
  const unknown: string[] = [];
  for (const [name, text] of Object.entries(named)) {
    const field = prompt.inputs.find((f) => f.name === name) ?? prompt.inputs.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!field) {
      unknown.push(name);
      continue;
    }
    values[field.name] = field.type === 'boolean' ? (toBoolean(text) ?? text) : text;
    given.add(field.name);
  }
  const open = prompt.inputs.filter((f) => f.required && !given.has(f.name) && f.type !== 'boolean');
  positional.forEach((text, i) => {
    if (open[i]) values[open[i].name] = text;
    else unknown.push(text);
  });
  return { values, unknown };
}

/** A run's inputs as the form's controls hold them (text for text fields, a checkbox's boolean); unknown names are dropped. */
export function formValues(prompt: PromptSummary, inputs: Record<string, unknown>): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of prompt.inputs) {
    const value = inputs[field.name];
    if (value === undefined || value === null) continue;
    if (field.type === 'boolean') values[field.name] = value === true || value === 'true';
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[field.name] = String(value);
  }
  return values;
}

/** The inputs `prompt` last ran with: from this view first, else from the conversation's last run of it. */
export function lastFormValues(
  state: { lastInputs: Record<string, Record<string, FormValue>>; messages: ChatMessage[] },
  prompt: PromptSummary,
): Record<string, FormValue> {
  const remembered = state.lastInputs[prompt.id];
  if (remembered) return remembered;
  const lastRun = [...state.messages].reverse().find((m): m is PromptRunMessage => m.kind === 'prompt-run' && m.promptId === prompt.id);
  return lastRun ? formValues(prompt, lastRun.inputs) : {};
}
