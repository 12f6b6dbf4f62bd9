import { strict as assert } from 'node:assert';
import { probeServer, PROBE_QUESTION, RecordingFetch, type ProbeResult } from '../../src/core/toolTester';
import type { ModelSettings } from '../../src/core/llm/modelSettings';
import { echoKeyInEveryForm, receivedKey } from '../support/keyEchoingTurns';
import { OpenAiTestServer, type RecordedRequest, type Turn } from '../support/openaiServer';

const BLOCK = '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」add_numbers「末」\na: 「始」17「末」\nb: 「始」25「末」\n<<<[END_TOOL_REQUEST]>>>';
const NATIVE_CALL: Turn = { toolCalls: [{ name: 'add_numbers', arguments: { a: 17, b: 25 } }] };
const TEXT_CALL: Turn = { text: `I will add them.\n${BLOCK}\n` };
const REJECT_TOOLS: Turn = { status: 400, body: { error: { message: 'tools param requires --jinja flag', type: 'invalid_request_error' } } };
/** No `sk-` prefix and with URL and JSON metacharacters, so neither a key-shaped mask nor a naive replace can be what hides it. */
const KEY = 'local-Zq8vN3+pXk7/Lw2Rt9="x';
const KEY_FORMS = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];

/** "Test my server" against the scripted OpenAI server, through the real ChatOpenAI client. */
describe('tool tester: probeServer', () => {
  let server: OpenAiTestServer;
  const settings = (extra: Partial<ModelSettings> = {}): ModelSettings => ({ baseURL: server.url, model: 'test-model', maxRetries: 0, ...extra });
  const start = async (script: Turn[] | ((request: RecordedRequest) => Turn)) => {
    server = new OpenAiTestServer(script);
    await server.start();
  };
  afterEach(async () => server?.close());

  it('native calls and the text protocol both work: native is suggested; each half sent its own request', async () => {
    await start([NATIVE_CALL, TEXT_CALL]);
    const result = await probeServer(settings());

    assert.equal(result.verdict, 'both');
    assert.equal(result.suggestion, 'native');
    assert.deepEqual([result.native.outcome, result.text.outcome], ['works', 'works']);
    assert.deepEqual(result.native.call?.args, { a: 17, b: 25 });
    assert.deepEqual(result.text.call?.args, { a: 17, b: 25 }, 'the text values are coerced to numbers by the schema');
    assert.equal(result.text.answer.trim(), 'I will add them.', 'the request block is not part of the answer');

    const [native, text] = server.requests;
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      native!.body!.tools!.map((tool) => tool.function.name),
      ['add_numbers'],
    );
    assert.match(native!.promptText, new RegExp(escape(PROBE_QUESTION)));
    assert.equal(text!.body!.tools, undefined, 'the text half sends no tools field');
    assert.match(text!.promptText, /<<<\[TOOL_DEFINITION\]>>>\ntool_name: 「始」add_numbers「末」/);
    assert.equal(result.native.exchanges.length, 1);
    assert.equal(result.native.exchanges[0]!.status, 200);
    assert.match(result.native.exchanges[0]!.requestBody, /"tools":\[\{"type":"function","function":\{"name":"add_numbers"/);
    assert.match(result.native.exchanges[0]!.responseBody!, /"tool_calls"/, 'the raw SSE answer is recorded');
  });

  it('native works but the model ignores the text protocol: "native"', async () => {
    await start([NATIVE_CALL, { text: 'The sum is 42.' }]);
    const result = await probeServer(settings());
    assert.equal(result.verdict, 'native');
    assert.equal(result.suggestion, 'native');
    assert.equal(result.text.outcome, 'no-call');
  });

  it('the server rejects tools with 400: only the text protocol works, the 400 is not retried, and "text" is suggested', async () => {
    await start([REJECT_TOOLS, TEXT_CALL]);
    const result = await probeServer(settings({ maxRetries: 3 }));

    assert.equal(result.verdict, 'text');
    assert.equal(result.suggestion, 'text');
    assert.equal(result.native.outcome, 'rejected');
    assert.match(result.native.detail, /refused the request with tools: .*400/);
    assert.match(result.summary, /the server rejects tools.*Use toolProtocol "text"/);
    assert.equal(result.text.outcome, 'works');
    assert.equal(server.requests.length, 2, 'one request per half: a 400 is never retried');
    assert.equal(result.native.exchanges[0]!.status, 400);
    assert.match(result.native.exchanges[0]!.responseBody!, /tools param requires --jinja flag/);
  });

  it('the model writes its native call as text: that half does not count, and the text protocol is suggested', async () => {
    await start([{ text: '```json\n{"name": "add_numbers", "arguments": {"a": 17, "b": 25}}\n```' }, TEXT_CALL]);
    const result = await probeServer(settings());

    assert.equal(result.native.outcome, 'text-call');
    assert.equal(result.native.works, false);
    assert.equal(result.native.call?.name, 'add_numbers');
    assert.match(result.native.detail, /wrote its call as text/);
    assert.equal(result.verdict, 'text');
    assert.equal(result.suggestion, 'text');
    assert.match(result.summary, /the model writes calls as text/);
  });

  it('no call at all, in either half: "neither", and no setting is suggested', async () => {
    await start([{ text: '17 + 25 = 42' }, { text: 'The answer is 42.' }]);
    const result = await probeServer(settings());

    assert.equal(result.verdict, 'neither');
    assert.equal(result.suggestion, undefined);
    assert.deepEqual([result.native.outcome, result.text.outcome], ['no-call', 'no-call']);
    assert.equal(result.text.answer, 'The answer is 42.');
    assert.match(result.summary, /^Neither native tool calls nor the text protocol worked/);
  });

  it('a call with the wrong arguments is "wrong-call", not a success', async () => {
    await start([{ toolCalls: [{ name: 'add_numbers', arguments: { a: 17, b: 24 } }] }, { text: BLOCK.replace('25', 'twenty-five') }]);
    const result = await probeServer(settings());
    assert.deepEqual([result.native.outcome, result.text.outcome], ['wrong-call', 'wrong-call']);
    assert.equal(result.verdict, 'neither');
  });

  it('the API key reaches the server but never the recorded exchanges, the details or the summary, even when the server echoes it', async () => {
    let answered = 0;
    // The native half gets a 400 quoting the key in several encodings; the text half a working answer that quotes it.
    await start((request) => (answered++ === 0 ? echoKeyInEveryForm(400)(request) : { text: `Key ${receivedKey(request)} accepted.\n${BLOCK}` }));
    const result = await probeServer(settings({ apiKey: KEY }));

    assert.deepEqual(
      server.requests.map((request) => request.headers.authorization),
      [`Bearer ${KEY}`, `Bearer ${KEY}`],
      'the key was really sent',
    );
    assert.equal(result.verdict, 'text');
    const exchanges = [...result.native.exchanges, ...result.text.exchanges];
    assert.equal(exchanges.length, 2);
    for (const exchange of exchanges) assert.equal(exchange.requestHeaders.authorization, 'Bearer [redacted]');
    assert.match(result.native.exchanges[0]!.responseBody!, /Key \[redacted\] rejected/, 'the echoed key is redacted in the body');
    assertNoKey(result);
  });

  it('a 401 (wrong key) fails both halves with the reason, key removed', async () => {
    await start((request) => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${receivedKey(request)}` } } }));
    const result = await probeServer(settings({ apiKey: KEY }));
    assert.deepEqual([result.native.outcome, result.text.outcome], ['failed', 'failed']);
    assert.match(result.text.detail, /401/);
    assert.equal(result.verdict, 'neither');
    assertNoKey(result);
  });
});

describe('tool tester: RecordingFetch', () => {
  let server: OpenAiTestServer;
  afterEach(async () => server?.close());

  it('records method, URL, headers and both bodies, with secret headers and echoed keys removed', async () => {
    server = new OpenAiTestServer((request) => ({ status: 418, body: { error: { message: `no ${receivedKey(request)} here` } } }));
    await server.start();
    const recorder = new RecordingFetch([KEY]);
    const response = await recorder.fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, 'content-type': 'application/json', 'x-note': `k=${KEY}` },
      body: JSON.stringify({ key: KEY }),
    });
    assert.equal(response.status, 418);
    assert.match(await response.text(), /no .* here/, 'the caller still reads the whole body');

    const [exchange] = await recorder.settled();
    assert.equal(exchange!.method, 'POST');
    assert.equal(exchange!.url, `${server.url}/chat/completions`);
    assert.equal(exchange!.status, 418);
    assert.deepEqual(
      [exchange!.requestHeaders.authorization, exchange!.requestHeaders['x-api-key'], exchange!.requestHeaders['x-note']],
      ['Bearer [redacted]', '[redacted]', 'k=[redacted]'],
    );
    assert.equal(exchange!.requestBody, '{"key":"[redacted]"}');
    assert.match(exchange!.responseBody!, /no \[redacted\] here/);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`, 'the wire itself is untouched');
    assertNoKey(recorder.exchanges);
  });

  it('a request that never gets an answer is recorded with the error', async () => {
    const recorder = new RecordingFetch([KEY]);
    await assert.rejects(recorder.fetch('http://127.0.0.1:1/v1/chat/completions', { method: 'POST', body: '{}' }));
    const [exchange] = await recorder.settled();
    assert.equal(exchange!.status, undefined);
    assert.ok(exchange!.error);
  });
});

/** Checks every string in the value as it is, so a key escaped once inside a recorded JSON body is caught too. */
function assertNoKey(value: ProbeResult | unknown): void {
  for (const text of strings(value)) {
    for (const form of KEY_FORMS) assert.ok(!text.includes(form), `the key (${form}) is in the result:\n${text}`);
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
