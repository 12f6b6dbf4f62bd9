import type { AIMessage, BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { BindToolsInput, ToolChoice } from '@langchain/core/language_models/chat_models';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { textOf } from '../../core/llm/streamChat';
import type { LanguageModelApi, LmAssistantPart, LmMessage, LmRequestOptions, LmTool, LmToolResultPart } from './languageModelApi';

/**
 * LangChain messages and tools in the shapes `LanguageModelChat.sendRequest` takes. VS Code's API has
 * two roles, User and Assistant (a System role is still a proposal), so:
 * - the system prompt goes first as a User message, the way VS Code's own guide sends instructions;
 * - an assistant turn carries its text and each tool call as a LanguageModelToolCallPart;
 * - tool results go back as LanguageModelToolResultParts inside one User message per run of results
 *   (providers such as Anthropic's want every result of a turn in the message that follows it).
 */
export function toLanguageModelMessages(messages: readonly BaseMessage[], api: LanguageModelApi): LmMessage[] {
  const converted: LmMessage[] = [];
  let results: LmToolResultPart[] = [];
  const flushResults = () => {
    if (results.length) converted.push(api.user(results));
    results = [];
  };
  for (const message of messages) {
    const type = message.getType();
    if (type === 'tool') {
      const tool = message as ToolMessage;
      results.push(new api.ToolResultPart(tool.tool_call_id, [new api.TextPart(textOf(tool.content))]));
      continue;
    }
    flushResults();
    if (type === 'ai') {
      const parts = assistantParts(message as AIMessage, api);
      if (parts.length) converted.push(api.assistant(parts));
      continue;
    }
    // system, human and any other role: text the model reads from the user's side.
    const text = textOf(message.content);
    if (text) converted.push(api.user([new api.TextPart(text)]));
  }
  flushResults();
  return converted;
}

function assistantParts(message: AIMessage, api: LanguageModelApi): LmAssistantPart[] {
  const parts: LmAssistantPart[] = [];
  const text = textOf(message.content);
  if (text) parts.push(new api.TextPart(text));
  for (const call of message.tool_calls ?? []) {
    // Every call needs its part, even one whose arguments were unusable: the result that follows names its id.
    parts.push(new api.ToolCallPart(call.id ?? '', call.name, call.args ?? {}));
  }
  return parts;
}

/**
 * Tools as LanguageModelChatTools: name, description and the JSON Schema of the parameters. The agent hands
 * over OpenAI-form definitions already; anything else LangChain accepts (a StructuredTool, a zod tool) is
 * converted the way ChatOpenAI converts it.
 */
export function toLanguageModelTools(tools: readonly BindToolsInput[]): LmTool[] {
  return tools.map((tool) => {
    const { function: fn } = convertToOpenAITool(tool);
    return { name: fn.name, description: fn.description ?? '', inputSchema: (fn.parameters as object | undefined) ?? { type: 'object', properties: {} } };
  });
}

/**
 * The tools and tool mode for one request. VS Code cannot name the tool to call, only require a call, and
 * providers may support Required with a single tool only: a forced tool (`tool_choice: "read_file"`, the
 * agent's `@tool` mentions) is sent alone with Required.
 */
export function toolOptions(
  tools: readonly LmTool[] | undefined,
  toolChoice: ToolChoice | undefined,
  api: LanguageModelApi,
): Pick<LmRequestOptions, 'tools' | 'toolMode'> {
  if (!tools?.length || toolChoice === 'none') return {};
  if (toolChoice === undefined || toolChoice === 'auto') return { tools: [...tools], toolMode: api.toolMode.auto };
  if (toolChoice === 'any' || toolChoice === 'required') return { tools: [...tools], toolMode: api.toolMode.required };
  const name = typeof toolChoice === 'string' ? toolChoice : forcedName(toolChoice);
  const forced = tools.find((tool) => tool.name === name);
  return forced ? { tools: [forced], toolMode: api.toolMode.required } : { tools: [...tools], toolMode: api.toolMode.auto };
}

/** `{ type: "function", function: { name } }`, OpenAI's form of a forced tool. */
function forcedName(choice: Record<string, unknown>): string | undefined {
  const fn = choice.function;
  return typeof fn === 'object' && fn !== null && typeof (fn as { name?: unknown }).name === 'string' ? (fn as { name: string }).name : undefined;
}

/** Everything the model reads in a request, as one text, for one `countTokens` call (see languageModelChatModel.ts). */
export function requestText(messages: readonly BaseMessage[], tools: readonly LmTool[] | undefined): string {
  const pieces = messages.map((message) => {
    const calls = message.getType() === 'ai' ? ((message as AIMessage).tool_calls ?? []).map((call) => `${call.name}${JSON.stringify(call.args ?? {})}`) : [];
    return [textOf(message.content), ...calls].join('\n');
  });
  for (const tool of tools ?? []) pieces.push(`${tool.name}: ${tool.description}\n${JSON.stringify(tool.inputSchema ?? {})}`);
  return pieces.join('\n\n');
}
