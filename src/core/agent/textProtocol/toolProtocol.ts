/**
 * How tool calls travel between the agent and the model.
 * - `native`: OpenAI `tools` in the request, `tool_calls` in the answer, `role: "tool"` results.
 * - `text`: the tools are described in the system prompt and the model writes request blocks in its
 *   answer (seed 004's `<<<[TOOL_REQUEST]>>>` format); results go back as a user message. For servers
 *   and chat templates without tool support, which is where small local models live.
 * - `auto`: native, switching to text for the rest of the conversation when the server rejects
 *   `tools` or the model writes its call as text; the switch is remembered per model and endpoint.
 */
export type ToolProtocolSetting = 'auto' | 'native' | 'text';
export type ToolProtocol = 'native' | 'text';

export const TOOL_PROTOCOL_SETTINGS: readonly ToolProtocolSetting[] = ['auto', 'native', 'text'];

export const REQUEST_START = '<<<[TOOL_REQUEST]>>>';
export const REQUEST_END = '<<<[END_TOOL_REQUEST]>>>';
export const RESULT_START = '<<<[TOOL_RESULT]>>>';
export const RESULT_END = '<<<[END_TOOL_RESULT]>>>';
export const DEFINITION_START = '<<<[TOOL_DEFINITION]>>>';
/** Value delimiters: 「始」 opens a value, 「末」 closes it; values may span lines. */
export const VALUE_OPEN = '「始」';
export const VALUE_CLOSE = '「末」';

export function isToolProtocolSetting(value: unknown): value is ToolProtocolSetting {
  return typeof value === 'string' && (TOOL_PROTOCOL_SETTINGS as readonly string[]).includes(value);
}
