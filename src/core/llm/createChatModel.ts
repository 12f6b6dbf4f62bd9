import { ChatCompletionsModel } from './chatCompletionsModel';
import { PLACEHOLDER_API_KEY, withAuthorization } from './authorizedFetch';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type ModelPair, type ModelSettings } from './modelSettings';
import { createResilientFetch, type FetchFn } from './resilientFetch';
import { llamaServerCheck, withPromptCacheHints } from './promptCacheHints';
import { MAX_RETRY_AFTER_MS } from './retryPolicy';

/** Knobs below the user-facing settings: tests and benchmarks shrink the back-off or swap the transport. */
export interface TransportTuning {
  retryBaseDelayMs?: number;
  maxRetryAfterMs?: number;
  fetch?: FetchFn;
}

/** setTimeout overflows (and fires at once) beyond 2^31-1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The single way the core builds a chat model: the real ChatOpenAI (see chatCompletionsModel.ts), speaking chat completions to any
 * OpenAI-compatible server, with our fetch underneath doing auth, retries and deadlines, and removing the key from
 * whatever the server sends back (authorizedFetch.ts).
 *
 * - `maxRetries: 0` switches off LangChain's AsyncCaller retries (the SDK client inside ChatOpenAI is already
 *   built with 0), so resilientFetch is the only retry layer.
 * - The SDK's own `timeout` is set beyond anything our deadlines allow, as a backstop only; it would otherwise
 *   cut a long but legitimate retry sequence at its 10-minute default with an anonymous "Request timed out".
 * - `streaming` is deliberately left unset. `.stream()` streams anyway, and invoke() streams when a callback
 *   handler asks for it (`lc_prefer_streaming`). With `streaming: true`, invoke() would instead estimate
 *   token counts with tiktoken, which downloads its tables from the internet.
 * - `streamUsage: true` sends `stream_options.include_usage`, so streamed answers carry real token counts.
 * - llama-server is asked to keep and reuse its prompt cache (`cache_prompt`, promptCacheHints.ts).
 * - `organization`/`project` are pinned to null so OPENAI_ORG_ID/OPENAI_PROJECT_ID in the environment do not
 *   leak into requests to an unrelated server.
 */
/** `isLlamaServer`: the endpoint's llama-server check, when the caller shares one among its models (promptCacheHints.ts). */
export function createChatModel(
  settings: ModelSettings,
  tuning: TransportTuning = {},
  isLlamaServer = llamaServerCheck(
    settings.baseURL,
    withAuthorization(settings.apiKey, (input, init) => fetch(input, init)),
  ),
): ChatCompletionsModel {
  assertUsableSettings(settings);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = settings.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxRetryAfterMs = tuning.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const transport = createResilientFetch({
    timeoutMs,
    maxRetries,
    retryBaseDelayMs: tuning.retryBaseDelayMs,
    maxRetryAfterMs,
    fetch: tuning.fetch,
  });
  const backstopMs = (maxRetries + 1) * timeoutMs + maxRetries * maxRetryAfterMs + 30_000;

  return new ChatCompletionsModel({
    model: settings.model,
    apiKey: PLACEHOLDER_API_KEY,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    maxRetries: 0,
    timeout: Math.min(backstopMs, MAX_TIMER_MS),
    streamUsage: true,
    configuration: {
      baseURL: settings.baseURL,
      fetch: withPromptCacheHints(withAuthorization(settings.apiKey, transport), isLlamaServer),
      organization: null,
      project: null,
    },
  });
}

/**
 * The tool model falls back to the main model entirely unless a tool model name is configured; then the
 * configured fields override the main ones.
 */
export function createModelPair(main: ModelSettings, tool?: Partial<ModelSettings>, tuning?: TransportTuning): ModelPair {
  const mainModel = createChatModel(main, tuning);
  const toolSettings = resolveToolModelSettings(main, tool);
  return { main: mainModel, tool: toolSettings === main ? mainModel : createChatModel(toolSettings, tuning) };
}

/** Returns `main` itself when no tool model is configured. */
export function resolveToolModelSettings(main: ModelSettings, tool?: Partial<ModelSettings>): ModelSettings {
  if (!tool?.model?.trim()) return main;
  const overrides = Object.fromEntries(Object.entries(tool).filter(([, value]) => value !== undefined && value !== ''));
  const merged: ModelSettings = { ...main, ...overrides };
  // A key belongs to its server: the main key must not travel to a different tool endpoint.
  if (tool.apiKey === undefined && !sameEndpoint(merged.baseURL, main.baseURL)) delete merged.apiKey;
  return merged;
}

function sameEndpoint(a: string, b: string): boolean {
  return a.trim().replace(/\/+$/, '') === b.trim().replace(/\/+$/, '');
}

function assertUsableSettings(settings: ModelSettings): void {
  let protocol: string;
  try {
    protocol = new URL(settings.baseURL).protocol;
  } catch {
    throw new Error('The model base URL is not a valid URL (expected e.g. http://127.0.0.1:1234/v1)');
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error('The model base URL must start with http:// or https://');
  if (!settings.model.trim()) throw new Error('No model name is configured');
}
