/** Seed 004's text tool protocol: tool definitions in the prompt, request blocks in the answer, results as a user message. */
export { ToolRequestStream, splitToolRequests, type RawToolRequest } from './toolRequestStream';
export { parseToolRequest } from './parseToolRequest';
export { renderToolDefinitions, textProtocolInstructions, exampleRequest } from './toolDefinitionsText';
export { toolResultsMessage, nativeHistoryAsText, type TextToolResult } from './toolResultsMessage';
export { ToolProtocolMemory, type RememberedProtocol } from './toolProtocolMemory';
export { ToolProtocolChoice } from './toolProtocolChoice';
export { requestCalls, schemasByName, textResultsMessage } from './textRequests';
export { nonFlatParameters, isFlatParameter, type JsonSchema } from './jsonSchemaTypes';
export * from './toolProtocol';
