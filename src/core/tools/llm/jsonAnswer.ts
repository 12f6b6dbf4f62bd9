import { Validator } from '@cfworker/json-schema';
import type { LlmToolContext, ToolMessage } from './defineLlmTool';

/**
 * Gets JSON out of a model: tolerant parsing (code fences, prose around the value), validation
 * against a JSON Schema when one is given, and exactly one repair turn that shows the model
 * its answer and what was wrong with it. A second failure is the step's error.
 */
export async function askForJson(context: LlmToolContext<unknown>, messages: ToolMessage[], schema?: Record<string, unknown>): Promise<unknown> {
  const first = await context.ask(messages);
  const problem = checkJson(first, schema);
  if (problem.ok) return problem.value;
  const repair: ToolMessage[] = [
    ...messages,
    { role: 'ai', content: first },
    { role: 'human', content: `That answer is not valid: ${problem.error}\nReply with only the corrected JSON.` },
  ];
  const second = await context.ask(repair);
  const retried = checkJson(second, schema);
  if (retried.ok) return retried.value;
  throw new Error(`the model did not return valid JSON after one repair attempt: ${retried.error}`);
}

type Checked = { ok: true; value: unknown } | { ok: false; error: string };

function checkJson(text: string, schema?: Record<string, unknown>): Checked {
  const parsed = parseJsonLoosely(text);
  if (!parsed.ok) return parsed;
  if (!schema) return parsed;
  const result = new Validator(schema as never, '2020-12', false).validate(parsed.value);
  if (result.valid) return parsed;
  const errors = result.errors
    .filter((e) => !e.error.startsWith('Property') || result.errors.length === 1)
    .slice(0, 5)
    .map((e) => `${e.instanceLocation || '#'}: ${e.error}`);
  return { ok: false, error: `it does not match the schema (${errors.join('; ')})` };
}

function parseJsonLoosely(text: string): Checked {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  const candidate = (fenced ? fenced[1] : text).trim();
  const tries = [candidate, slice(candidate, '{', '}'), slice(candidate, '[', ']')].filter((t): t is string => !!t);
  for (const attempt of tries) {
    try {
      return { ok: true, value: JSON.parse(attempt) };
    } catch {
      // try the next shape
    }
  }
  return { ok: false, error: 'it is not JSON' };
}

function slice(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}
