import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { textOf } from '../../llm/streamChat';
import { REQUEST_END, REQUEST_START, RESULT_END, RESULT_START, VALUE_CLOSE, VALUE_OPEN } from './toolProtocol';

export interface TextToolResult {
  name: string;
  /** `success` when the tool ran; `error` for a failed, refused, skipped or unreadable call. */
  status: 'success' | 'error';
  content: string;
}

/**
 * The user message that carries one turn's results back to the model, in a fixed format: one
 * result block per request, in request order, then one line on what to do next.
 */
export function toolResultsMessage(results: TextToolResult[]): HumanMessage {
  const blocks = results.map((result) =>
    [
      RESULT_START,
      `tool_name: ${VALUE_OPEN}${result.name || '(none)'}${VALUE_CLOSE}`,
      `status: ${VALUE_OPEN}${result.status}${VALUE_CLOSE}`,
      `result: ${VALUE_OPEN}\n${result.content}\n${VALUE_CLOSE}`,
      RESULT_END,
    ].join('\n'),
  );
  const next = 'Call more tools with request blocks if you need them, or answer the question now.';
  return new HumanMessage(`${blocks.join('\n\n')}\n\n${next}`);
}

/**
 * Earlier turns recorded with native calls, rewritten for a conversation that now uses the text
 * protocol: a server without tool support may refuse `tool_calls` and `role: "tool"` in the history.
 * One message in, one message out, so indexes into the list stay valid.
 */
export function nativeHistoryAsText(messages: BaseMessage[]): BaseMessage[] {
  return messages.map((message) => {
    if (message instanceof ToolMessage || message.getType() === 'tool') {
      const tool = message as ToolMessage;
      const failed = tool.status === 'error';
      return toolResultsMessage([{ name: tool.name ?? '', status: failed ? 'error' : 'success', content: textOf(tool.content) }]);
    }
    if (message.getType() === 'ai' && (message as AIMessage).tool_calls?.length) {
      const ai = message as AIMessage;
      const requests = ai.tool_calls!.map((call) =>
        [
          REQUEST_START,
          `tool_name: ${VALUE_OPEN}${call.name}${VALUE_CLOSE}`,
          ...Object.entries(call.args ?? {}).map(
            ([key, value]) => `${key}: ${VALUE_OPEN}${typeof value === 'string' ? value : JSON.stringify(value)}${VALUE_CLOSE}`,
          ),
          REQUEST_END,
        ].join('\n'),
      );
      const text = textOf(ai.content);
      return new AIMessage([text, ...requests].filter(Boolean).join('\n\n'));
    }
    return message;
  });
}
