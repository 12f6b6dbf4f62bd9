import type { JsonSchema } from './textProtocol/jsonSchemaTypes';
import { parseToolRequest } from './textProtocol/parseToolRequest';
import { requestCalls } from './textProtocol/textRequests';
import { splitToolRequests } from './textProtocol/toolRequestStream';
import type { ParsedToolCall } from './toolCallParsing';

export interface TextToolCalls {
  calls: ParsedToolCall[];
  /** The exact text of each recognised call, to take out of the displayed answer. */
  spans: string[];
}

const FENCED = /```(?:json|tool_call|tool)?[ \t]*\n([\s\S]*?)\n?```/g;
const TAGGED = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
/** `<read_file path="src/a.ts" start_line="1" />`: a call written as an XML element (measured: Qwen 1.5B, asked to check a file). */
const XML_CALL = /<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w-]*\s*=\s*"[^"]*")+)\s*\/?>(?:\s*<\/\1>)?/g;
const XML_ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"/g;
/** A text-protocol request block, closed or cut off at the end of the answer. */
const REQUEST_BLOCK = /<<<\[TOOL_REQUEST\]>>>[\s\S]*?(?:<<<\[END_TOOL_REQUEST\]>>>|$)/g;

/**
 * Small local models often write a tool call as text instead of sending it natively: a fenced JSON block
 * (`{"name": "read_file", "arguments": {…}}`), Qwen's `<tool_call>{…}</tool_call>` outside the server's
 * parser, or the whole answer as one bare JSON object. Such a call is recognised only when it names a tool
 * offered in this run; it is then validated and approved exactly like a native call (never run blindly).
 */
export function findTextToolCalls(text: string, offered: ReadonlySet<string>, iteration: number, schemas?: ReadonlyMap<string, JsonSchema>): TextToolCalls {
  const found: TextToolCalls = { calls: [], spans: [] };
  // A model that has seen the text protocol before (or was trained on it) may write request blocks while
  // native calls are on: read them with the protocol's own parser, values coerced by the schemas.
  if (schemas && text.includes('<<<[TOOL_REQUEST]>>>')) {
    const blocks = requestCalls(splitToolRequests(text).blocks, schemas, iteration).filter((call) => offered.has(call.name));
    if (blocks.length) return { calls: blocks, spans: [...text.matchAll(REQUEST_BLOCK)].map((match) => match[0]) };
  }
  // Attribute values are strings: they go through the text protocol's reader so the schemas coerce them.
  if (schemas) {
    for (const match of text.matchAll(XML_CALL)) {
      const name = match[1]!;
      if (!offered.has(name)) continue;
      const fields = [...match[2]!.matchAll(XML_ATTRIBUTE)].map(([, key, value]) => `${key}: 「始」${value}「末」`);
      found.spans.push(match[0]);
      found.calls.push(
        parseToolRequest(
          { body: [`tool_name: 「始」${name}「末」`, ...fields].join('\n'), closed: true },
          schemas,
          `text_call_${iteration}_${found.calls.length}`,
        ),
      );
    }
    if (found.calls.length) return found;
  }
  const consider = (span: string, body: string) => {
    const call = asToolCall(body, offered);
    if (!call) return;
    found.spans.push(span);
    found.calls.push({ id: `text_call_${iteration}_${found.calls.length}`, ...call });
  };
  for (const match of text.matchAll(TAGGED)) consider(match[0], match[1]!);
  for (const match of text.matchAll(FENCED)) consider(match[0], match[1]!);
  const trimmed = text.trim();
  if (!found.calls.length && trimmed.startsWith('{') && trimmed.endsWith('}')) consider(trimmed, trimmed);
  return found;
}

function asToolCall(body: string, offered: ReadonlySet<string>): Omit<ParsedToolCall, 'id'> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.trim());
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fn = typeof record.function === 'object' && record.function !== null ? (record.function as Record<string, unknown>) : undefined;
  const name = [record.name, record.tool, record.tool_name, fn?.name].find((v): v is string => typeof v === 'string');
  if (!name || !offered.has(name)) return undefined;
  const rawArgs = [record.arguments, record.args, record.parameters, record.input, fn?.arguments].find((v) => v !== undefined);
  if (rawArgs === undefined) return { name, rawArgs: '{}', args: {} };
  if (typeof rawArgs === 'string') {
    try {
      const parsed: unknown = JSON.parse(rawArgs);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { name, rawArgs, args: parsed as Record<string, unknown> };
    } catch {
      // falls through to the error below
    }
    return { name, rawArgs, argsError: `The arguments must be a JSON object. You sent: ${rawArgs.slice(0, 300)}` };
  }
  if (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs)) {
    return { name, rawArgs: JSON.stringify(rawArgs), argsError: "The arguments must be a JSON object matching the tool's parameters." };
  }
  return { name, rawArgs: JSON.stringify(rawArgs), args: rawArgs as Record<string, unknown> };
}

/** The answer without the text-form tool calls the model wrote into it (they are shown as tool calls instead). */
export function withoutSpans(text: string, spans: string[]): string {
  let result = text;
  for (const span of spans) {
    const at = result.lastIndexOf(span);
    if (at >= 0) result = `${result.slice(0, at)}${result.slice(at + span.length)}`;
  }
  // A wrapper left empty once its calls are taken out (`<tools>…</tools>`, as Qwen writes them) goes too.
  return result
    .replace(/<tools>\s*<\/tools>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
