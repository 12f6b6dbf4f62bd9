import type { OpenAiFunctionTool } from './agentToolSet';
import { modelAdapterFor, STRUCTURED_CALLS, type ModelAdapterSettings } from './modelAdapters';
import { textProtocolInstructions } from './textProtocol/toolDefinitionsText';
import type { ToolProtocol } from './textProtocol/toolProtocol';

/**
 * The guidance section of the agent's system prompt: the model family's advice, and under the text
 * protocol the protocol's instructions and tool definitions. One function for the agent loop and the
 * tool tester's prompt preview, so the preview is exactly what the model is told.
 */
export function agentGuidance(
  modelName: string,
  adapter: ModelAdapterSettings | undefined,
  protocol: ToolProtocol,
  definitions: readonly OpenAiFunctionTool[],
): string {
  const guidance = modelAdapterFor(modelName, adapter).guidance;
  if (protocol !== 'text') return guidance;
  // The family guidance forbids calls written as text, which the text protocol asks for.
  return [guidance.replace(STRUCTURED_CALLS, '').trim(), textProtocolInstructions(definitions)].filter(Boolean).join('\n\n');
}
