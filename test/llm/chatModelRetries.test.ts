import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:net';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { describeLlmError } from '../../src/core/llm/describeLlmError';
import { OpenAiTestServer } from '../support/openaiServer';

/** The single retry layer (resilientFetch), observed from the server's side. */
describe('createChatModel retries', () => {
  let server: OpenAiTestServer;
  let url: string;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    ({ url } = await server.start());
  });
  afterEach(() => server.close());

  const fastModel = (maxRetries = 3) => createChatModel({ baseURL: url, model: 'm', maxRetries }, { retryBaseDelayMs: 5 });

  async function failureOf(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    assert.fail('expected the call to fail');
  }

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } }, { text: 'finally' });
    const answer = await fastModel().invoke('hi');

    assert.equal(answer.content, 'finally');
    assert.equal(server.requests.length, 2);
    const waited = server.requests[1]!.arrivedAt - server.requests[0]!.arrivedAt;
    assert.ok(waited >= 950, `second attempt came ${waited.toFixed(0)} ms after the first; Retry-After asked for 1 s`);
  });

  it('stops after maxRetries on repeated 500s and says so', async () => {
    for (let i = 0; i < 5; i++) server.enqueue({ status: 500, body: { error: { message: 'model crashed' } } });
    const error = await failureOf(fastModel(2).invoke('hi'));

    assert.equal(server.requests.length, 3, 'one attempt plus two retries');
    assert.equal(describeLlmError(error, url), `500 from ${url}: server error (gave up after 2 retries) — model crashed`);
  });

  it('stops after the default 3 retries on a streamed request too', async () => {
    for (let i = 0; i < 5; i++) server.enqueue({ status: 503 });
    const error = await failureOf(
      (async () => {
        for await (const _ of await createChatModel({ baseURL: url, model: 'm' }, { retryBaseDelayMs: 5 }).stream('hi')) void _;
      })(),
    );

    assert.equal(server.requests.length, 4);
    assert.match(describeLlmError(error, url), /^503 from .*: server error \(gave up after 3 retries\)/);
  });

  it('keeps a proxy HTML error page out of the message', async () => {
    server.enqueue({ status: 502, body: '<html><body>Bad Gateway</body></html>', headers: { 'content-type': 'text/html' } });
    const error = await failureOf(fastModel(0).invoke('hi'));
    assert.equal(describeLlmError(error, url), `502 from ${url}: server error`);
  });

  it('gives up on persistent 429s with a rate-limit message', async () => {
    for (let i = 0; i < 3; i++) server.enqueue({ status: 429, headers: { 'retry-after': '0' } });
    const error = await failureOf(fastModel(2).invoke('hi'));

    assert.equal(server.requests.length, 3);
    assert.equal(describeLlmError(error, url), `429 from ${url}: rate limited (gave up after 2 retries)`);
  });

  it('does not retry a 400 and shows the server reason', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'Unsupported value: temperature' } } }, { text: 'never' });
    const error = await failureOf(fastModel().invoke('hi'));

    assert.equal(server.requests.length, 1);
    assert.equal(describeLlmError(error, url), `400 from ${url}: the server rejected the request: Unsupported value: temperature`);
  });

  it('names both sizes when the prompt does not fit the context window, and does not retry', async () => {
    server.enqueue(
      { status: 400, body: { error: { message: "This model's maximum context length is 4096 tokens. However, your messages resulted in 5210 tokens." } } },
      { text: 'never' },
    );
    const error = await failureOf(fastModel().invoke('hi'));
    assert.equal(server.requests.length, 1);
    assert.match(describeLlmError(error, url), /^400 from .*: the prompt \(5,210 tokens\) does not fit the server's context size \(4,096 tokens\); use fewer/);
  });

  it('does not retry a 401 and never repeats what the server said about the key', async () => {
    const key = 'sk-test-SECRET-0123456789';
    server.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }, { text: 'never' });
    const error = await failureOf(createChatModel({ baseURL: url, model: 'm', apiKey: key }).invoke('hi'));

    assert.equal(server.requests.length, 1);
    assert.equal(describeLlmError(error, url), `401 from ${url}: check the API key`);
  });

  it('does not retry a 404 and names the model', async () => {
    server.enqueue({ status: 404, body: { error: "model 'llama-9' not found" } }, { text: 'never' });
    const error = await failureOf(createChatModel({ baseURL: url, model: 'llama-9' }).invoke('hi'));

    assert.equal(server.requests.length, 1);
    assert.equal(describeLlmError(error, url), `404 from ${url}: model "llama-9" not found or wrong base URL`);
  });

  it('retries a connection reset before any response', async () => {
    server.enqueue({ text: 'ignored', resetAfterChunks: 0 }, { text: 'second try' });
    const answer = await fastModel().invoke('hi');

    assert.equal(answer.content, 'second try');
    assert.equal(server.requests.length, 2);
  });

  it('does not retry a refused connection and says the server is not running', async () => {
    const closedPort = await unusedPort();
    const deadURL = `http://127.0.0.1:${closedPort}/v1`;
    let attempts = 0;
    const countingFetch = (input: string | URL | Request, init?: RequestInit) => (attempts++, fetch(input, init));
    const error = await failureOf(createChatModel({ baseURL: deadURL, model: 'm' }, { fetch: countingFetch }).invoke('hi'));

    assert.equal(attempts, 1);
    assert.equal(describeLlmError(error, deadURL), `Cannot connect to ${deadURL}: connection refused — is the server running?`);
  });
});

async function unusedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
