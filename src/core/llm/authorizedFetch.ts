import type { FetchFn } from './resilientFetch';

/**
 * The OpenAI SDK refuses to start without a key, so it always gets this stand-in; the real key (if any) is
 * added here, on the wire only. Two benefits: with no key no `Authorization` header is sent at all (local
 * servers need none, and must not receive someone's OPENAI_API_KEY from the environment), and the key never
 * sits in the ChatOpenAI or SDK client objects, where a debug dump or a log line could pick it up.
 */
export const PLACEHOLDER_API_KEY = 'codewiki-placeholder-key';

export function withAuthorization(apiKey: string | undefined, next: FetchFn): FetchFn {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.delete('authorization');
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    return next(input, { ...init, headers });
  };
}
