import type { RecordedRequest, Turn } from './openaiServer';

/**
 * Turns of a server that quotes the key it received back in its error text, as OpenAI's "Incorrect API key
 * provided: …" does and as careless proxies do in full. Use them as responders (`respondWith(echoKeyIn401)`),
 * so what is echoed is exactly what arrived in `Authorization`, not what the test believes it sent.
 */

/** The bearer value of a request; fails the test when there is none, since nothing could then be echoed. */
export function receivedKey(request: RecordedRequest): string {
  const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
  if (!match) throw new Error(`request #${request.index} carried no bearer key to echo`);
  return match[1]!;
}

export function echoKeyIn401(request: RecordedRequest): Turn {
  return {
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${receivedKey(request)}`, type: 'invalid_request_error', code: 'invalid_api_key' } },
  };
}

/** Any status, with the key quoted verbatim, percent-encoded and in a nested JSON text (as a proxy wraps an upstream body). */
export function echoKeyInEveryForm(status: number) {
  return (request: RecordedRequest): Turn => {
    const key = receivedKey(request);
    const upstream = JSON.stringify({ detail: `bad key ${key}` });
    return { status, body: { error: { message: `Key ${key} rejected (sent as ?key=${encodeURIComponent(key)}); upstream said ${upstream}` } } };
  };
}

/** Streams `chunks`, then fails with an SSE error event that quotes the key. */
export function echoKeyMidStream(chunks: string[]) {
  return (request: RecordedRequest): Turn => ({
    chunks,
    streamError: { error: { message: `Stream aborted: key ${receivedKey(request)} was revoked`, type: 'server_error' } },
  });
}
