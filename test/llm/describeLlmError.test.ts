import { strict as assert } from 'node:assert';
import { describeLlmError, isAbortError } from '../../src/core/llm/describeLlmError';
import { LlmConnectionError } from '../../src/core/llm/llmErrors';

/** Shapes that are awkward to provoke over the wire; the common ones are covered by the chatModel*.test.ts files. */
describe('describeLlmError', () => {
  const base = 'http://user:pass@127.0.0.1:1234/v1?key=abc';
  const shown = 'http://127.0.0.1:1234/v1';

  it('never shows credentials or a query from the base URL', () => {
    const text = describeLlmError(new Error('boom'), base);
    assert.equal(text, `Request to ${shown} failed: boom`);
  });

  it('recognises every shape a Stop takes', () => {
    const domAbort = new DOMException('This operation was aborted', 'AbortError');
    const langchainAbort = new Error('AbortError');
    const modelAbort = Object.assign(new Error('Model invocation was aborted.'), { name: 'ModelAbortError' });
    for (const error of [domAbort, langchainAbort, modelAbort, new Error('wrapped', { cause: domAbort })]) {
      assert.ok(isAbortError(error), String(error));
      assert.equal(describeLlmError(error, base), 'Cancelled');
    }
    assert.ok(!isAbortError(new Error('model crashed')));
  });

  it('explains unknown hosts and connections closed before a response', () => {
    const dns = new LlmConnectionError(`${shown}/chat/completions`, 'before-response', 'ENOTFOUND', 0);
    assert.equal(describeLlmError(dns, base), `Cannot connect to ${shown}: host not found — check the base URL`);
    const reset = new LlmConnectionError(`${shown}/chat/completions`, 'before-response', 'ECONNRESET', 3);
    assert.equal(describeLlmError(reset, base), `The connection to ${shown} was closed before a response (gave up after 3 retries)`);
  });

  it("reads LangChain's rewrap of the SDK timeout", () => {
    const timeout = Object.assign(new Error('Request timed out.'), { name: 'TimeoutError' });
    assert.equal(describeLlmError(timeout, base), `No response from ${shown} (timeout)`);
  });

  it('masks key-shaped text and keeps only the first line of what the server said', () => {
    const error = Object.assign(new Error('400 bad'), {
      status: 400,
      error: { message: 'Key sk-live-abcdef123456 is not allowed with Bearer xyz123\nstack line' },
    });
    assert.equal(describeLlmError(error, base), `400 from ${shown}: the server rejected the request: Key sk-*** is not allowed with Bearer ***`);
  });
});
