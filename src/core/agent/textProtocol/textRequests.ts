import type { OpenAiFunctionTool } from '../agentToolSet';
import type { ParsedToolCall } from '../toolCallParsing';
import type { ToolCallResult } from '../toolCallRunner';
import type { JsonSchema } from './jsonSchemaTypes';
import { parseToolRequest } from './parseToolRequest';
import type { RawToolRequest } from './toolRequestStream';
import { toolResultsMessage } from './toolResultsMessage';
import type { HumanMessage } from '@langchain/core/messages';

/** Each offered tool's parameter schema by name, for coercing text request values. */
export function schemasByName(definitions: readonly OpenAiFunctionTool[]): ReadonlyMap<string, JsonSchema> {
  return new Map(definitions.map((definition) => [definition.function.name, definition.function.parameters as JsonSchema]));
}

/** One turn's request blocks as tool calls, ids in the order written. */
export function requestCalls(blocks: readonly RawToolRequest[], schemas: ReadonlyMap<string, JsonSchema>, iteration: number): ParsedToolCall[] {
  return blocks.map((block, index) => parseToolRequest(block, schemas, `text_call_${iteration}_${index}`));
}

/** One turn's results as the text protocol's user message; a call without a result says why. */
export function textResultsMessage(
  calls: ParsedToolCall[],
  results: ReadonlyMap<ParsedToolCall, Pick<ToolCallResult, 'status' | 'content'>>,
  missing: string,
): HumanMessage {
  return toolResultsMessage(
    calls.map((call) => {
      const result = results.get(call);
      return { name: call.name, status: result?.status === 'ok' ? 'success' : 'error', content: result?.content ?? missing };
    }),
  );
}
