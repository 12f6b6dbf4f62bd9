import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/** How to reach one OpenAI-compatible chat model. Everything but the endpoint and model name has a default. */
export interface ModelSettings {
  /** Ends with the API version segment, e.g. `http://127.0.0.1:1234/v1`. */
  baseURL: string;
  model: string;
  /** Optional because local servers need none; when absent no `Authorization` header is sent at all. */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  /** Longest wait for response headers, and longest silence while a response body streams. */
  timeoutMs?: number;
  /** Retries after 429, 5xx and dropped connections; 400/401/403/404 are never retried. */
  maxRetries?: number;
}

/**
 * The main model answers the user; the tool model serves LLM-as-a-tool steps (summaries, classification),
 * where a smaller, cheaper model is usually good enough.
 */
export interface ModelPair {
  main: BaseChatModel;
  tool: BaseChatModel;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;
