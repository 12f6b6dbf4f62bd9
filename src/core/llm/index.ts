/** LLM access for the core: one factory, one retry layer, plain-words errors, token usage. */
export { createChatModel, createModelPair, resolveToolModelSettings, type TransportTuning } from './createChatModel';
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type ModelPair, type ModelSettings } from './modelSettings';
export { describeLlmError, isAbortError } from './describeLlmError';
export { classifyLlmError, type LlmFailure } from './classifyLlmError';
export { LlmConnectionError, LlmTimeoutError, type ConnectionPhase, type TimeoutPhase } from './llmErrors';
export { addUsage, usageFromMessage, UsageCollector, ZERO_USAGE, type TokenUsage } from './usage';
