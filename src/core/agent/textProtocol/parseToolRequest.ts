import type { ParsedToolCall } from '../toolCallParsing';
import { parameterTypes, type JsonSchema } from './jsonSchemaTypes';
import type { RawToolRequest } from './toolRequestStream';
import { REQUEST_END, REQUEST_START, VALUE_CLOSE } from './toolProtocol';

/** `key: 「始」` at the start of a line (a full-width colon is accepted too). */
const FIELD = /^[ \t]*([A-Za-z_][\w.-]*)[ \t]*[:：][ \t]*「始」/gm;
const MAX_QUOTED = 300;

/**
 * One request block as a tool call. A value runs from its 「始」 to the last 「末」 before the next
 * `key: 「始」` line (or the block's end), so values may hold new lines, 「」 and even 「末」. Values are
 * coerced by the tool's JSON Schema (numbers, booleans, JSON for arrays and objects); anything that
 * still does not fit is left for the runner's schema validation, which tells the model what is wrong.
 * A block that cannot be read at all becomes a call with `argsError`, so the model gets it back.
 */
export function parseToolRequest(block: RawToolRequest, schemas: ReadonlyMap<string, JsonSchema>, id: string): ParsedToolCall {
  const rawArgs = block.body;
  const fields = readFields(block.body);
  if ('error' in fields) return { id, name: fields.name ?? '', rawArgs, argsError: fields.error };
  const name = fields.values.get('tool_name')?.trim() ?? '';
  if (!name) return { id, name: '', rawArgs, argsError: `The request has no tool_name. ${FORMAT_REMINDER}` };
  if (!block.closed)
    return {
      id,
      name,
      rawArgs,
      argsError: `The request was not closed with ${REQUEST_END}, so it was not run (was the answer cut off?). Send the whole block again.`,
    };
  fields.values.delete('tool_name');
  const properties = schemas.get(name)?.properties ?? {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of fields.values) args[key] = coerce(value, properties[key]);
  return { id, name, rawArgs: JSON.stringify(args), args };
}

const FORMAT_REMINDER = `Write each call as:\n${REQUEST_START}\ntool_name: 「始」the tool's name「末」\nparameter_name: 「始」value「末」\n${REQUEST_END}`;

function readFields(body: string): { values: Map<string, string> } | { error: string; name?: string } {
  const starts = [...body.matchAll(FIELD)];
  if (!starts.length) return { error: `The request block could not be read: no "name: 「始」value「末」" lines. You sent: ${quote(body)}. ${FORMAT_REMINDER}` };
  const values = new Map<string, string>();
  let name: string | undefined;
  for (let i = 0; i < starts.length; i++) {
    const match = starts[i]!;
    const from = match.index + match[0].length;
    const to = i + 1 < starts.length ? starts[i + 1]!.index : body.length;
    const close = body.lastIndexOf(VALUE_CLOSE, to - VALUE_CLOSE.length);
    const key = match[1]!;
    if (close < from) return { name, error: `The value of "${key}" is not closed with ${VALUE_CLOSE}. ${FORMAT_REMINDER}` };
    if (values.has(key)) return { name, error: `"${key}" is given twice in one request. Send each parameter once.` };
    const value = body.slice(from, close);
    if (key === 'tool_name') name = value.trim();
    values.set(key, stripFraming(value));
  }
  return { values };
}

/** A value written on its own lines (`「始」\n…\n「末」`) loses the line break right after 「始」, nothing else. */
function stripFraming(value: string): string {
  return value.startsWith('\r\n') ? value.slice(2) : value.startsWith('\n') ? value.slice(1) : value;
}

function coerce(value: string, schema: JsonSchema | undefined): unknown {
  const types = parameterTypes(schema);
  if (!types.size || types.has('string')) return value;
  const text = value.trim();
  if ((types.has('integer') || types.has('number')) && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  if (types.has('boolean')) {
    if (/^(true|yes)$/i.test(text)) return true;
    if (/^(false|no)$/i.test(text)) return false;
  }
  if (types.has('null') && text === 'null') return null;
  if (types.has('array') || types.has('object')) {
    try {
      return JSON.parse(text);
    } catch {
      // left as text: validation says which type was expected
    }
  }
  return text;
}

function quote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MAX_QUOTED ? JSON.stringify(trimmed) : `${JSON.stringify(trimmed.slice(0, MAX_QUOTED))}… (${trimmed.length} chars)`;
}
