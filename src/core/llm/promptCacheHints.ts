import type { FetchFn } from './resilientFetch';

/** How long the one `GET /props` that tells llama-server apart may take before the answer is "not llama-server". */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Asks `cache_prompt` and `timings_per_token` of llama-server on every chat completion, and only of llama-server.
 *
 * llama-server keeps a slot's KV cache and reuses the longest common prefix of the next prompt, but only when
 * the request says `cache_prompt: true`. Its default has changed between builds, so CodeWiki says it explicitly.
 * `timings_per_token` puts the timings so far on every streamed event, not only the last: an answer CodeWiki ends
 * early still says how much of its prompt came from the cache (serverTimings.ts `carryServerTimings`).
 * Other servers must not receive the field: OpenAI answers an unknown field with 400. So the endpoint is asked
 * once, on the first chat request, whether it is llama.cpp (`GET /props` describes its generation settings,
 * a route no other server has: `llamaServerCheck`), and the answer is kept.
 */
export function withPromptCacheHints(next: FetchFn, isLlamaServer: () => Promise<boolean>): FetchFn {
  return async (input, init = {}) => {
    if (!isChatCompletion(input, init) || !(await isLlamaServer())) return next(input, init);
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    return next(input, { ...init, body: JSON.stringify({ ...body, cache_prompt: true, timings_per_token: true }) });
  };
}

function isChatCompletion(input: string | URL | Request, init: RequestInit): boolean {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return (init.method ?? 'GET').toUpperCase() === 'POST' && typeof init.body === 'string' && /\/chat\/completions$/.test(new URL(url).pathname);
}

/**
 * Whether the endpoint is llama-server, asked on first use and remembered: one answer for every model and the prompt
 * cache of an endpoint (OpenAiModelProvider shares it). `probe` is the plain network fetch (no retries, no test
 * transport, not in a probe's recorded exchanges): a server that is down then fails the real request, with its
 * usual error.
 */
export function llamaServerCheck(baseURL: string, probe: FetchFn): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () => (answer ??= isLlamaServer(baseURL, probe));
}

/** llama-server answers `GET /props` (beside /v1) with `default_generation_settings`; anything else, or no answer in time, is another server. */
export async function isLlamaServer(baseURL: string, fetchFn: FetchFn): Promise<boolean> {
  try {
    const response = await fetchFn(new URL('/props', baseURL).href, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      return false;
    }
    const props = (await response.json()) as { default_generation_settings?: unknown };
    return typeof props.default_generation_settings === 'object' && props.default_generation_settings !== null;
  } catch {
    return false;
  }
}
