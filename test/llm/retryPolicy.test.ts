import { strict as assert } from 'node:assert';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs, retryDelayMs } from '../../src/core/llm/retryPolicy';

describe('retry policy', () => {
  it('retries 429 and 5xx only (not 501)', () => {
    for (const status of [429, 500, 502, 503, 504, 529]) assert.ok(isRetryableStatus(status), String(status));
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422, 501]) assert.ok(!isRetryableStatus(status), String(status));
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('2', now), 2000);
    assert.equal(parseRetryAfterMs('0.5', now), 500);
    assert.equal(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(parseRetryAfterMs('soon', now), undefined);
    assert.equal(parseRetryAfterMs('-3', now), undefined);
    assert.equal(parseRetryAfterMs(null, now), undefined);
  });

  it('caps what the server asks for and backs off with jitter otherwise', () => {
    const options = { baseDelayMs: 100, maxRetryAfterMs: 60_000 };
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '3600' }), 0, options), 60_000);
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '1' }), 5, options), 1000, 'Retry-After wins over the back-off step');
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '1', 'retry-after-ms': '250' }), 0, options), 250);
    const backoff = retryDelayMs(new Headers(), 2, options);
    assert.ok(backoff >= 200 && backoff <= 400, `back-off step 2 of base 100 ms is 200..400 ms, got ${backoff}`);

    assert.equal(
      backoffDelayMs(0, 100, () => 0),
      50,
    );
    assert.equal(
      backoffDelayMs(0, 100, () => 1),
      100,
    );
    assert.equal(
      backoffDelayMs(3, 100, () => 0),
      400,
    );
    assert.equal(
      backoffDelayMs(30, 100, () => 1),
      8000,
      'the step is capped',
    );
  });
});
