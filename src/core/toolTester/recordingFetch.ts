import type { FetchFn } from '../llm/resilientFetch';
import { REDACTED, SecretRedactor } from '../util/secretRedactor';

/** One HTTP exchange of a probe as it went over the wire, with the key removed. */
export interface RecordedExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status?: number;
  /** The body as received: a JSON object, an error, or the SSE lines of a streamed answer. */
  responseBody?: string;
  /** Set when no response (or only part of one) arrived. */
  error?: string;
}

const SECRET_HEADERS = /^(authorization|api-key|x-api-key|proxy-authorization)$/i;

/**
 * A fetch that keeps a copy of every request and response it carries, for the tester's "raw request
 * and response" view. It sits below the key injection (authorizedFetch.ts), so it sees the real
 * `Authorization` header: secret headers are replaced outright and every text passes the redactor.
 */
export class RecordingFetch {
  readonly exchanges: RecordedExchange[] = [];
  private readonly pending: Promise<void>[] = [];
  private readonly redactor: SecretRedactor;

  constructor(
    secrets: Iterable<string | undefined>,
    private readonly next: FetchFn = globalThis.fetch,
  ) {
    this.redactor = new SecretRedactor(secrets);
  }

  readonly fetch: FetchFn = async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const headers: Record<string, string> = {};
    new Headers(init.headers ?? request?.headers).forEach((value, name) => {
      headers[name] = SECRET_HEADERS.test(name) ? (/^bearer /i.test(value) ? `Bearer ${REDACTED}` : REDACTED) : this.redactor.redact(value);
    });
    const exchange: RecordedExchange = {
      method: init.method ?? request?.method ?? 'GET',
      url: this.redactor.redact(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url),
      requestHeaders: headers,
      requestBody: this.redactor.redact(typeof init.body === 'string' ? init.body : init.body ? '(binary body)' : ''),
    };
    this.exchanges.push(exchange);
    let response: Response;
    try {
      response = await this.next(input, init);
    } catch (error) {
      exchange.error = this.redactor.redact((error as Error)?.message ?? String(error));
      throw error;
    }
    exchange.status = response.status;
    // A copy of the body is read alongside the client's; it ends when the client's read ends (or fails).
    this.pending.push(
      response
        .clone()
        .text()
        .then(
          (text) => void (exchange.responseBody = this.redactor.redact(text)),
          (error: unknown) => void (exchange.error = this.redactor.redact(`the response broke off: ${(error as Error)?.message ?? String(error)}`)),
        ),
    );
    return response;
  };

  /**
   * Waits until every recorded response body has been read to its end, or `graceMs` (a body the client
   * gave up on, after its idle timeout, may never end: the copy is then reported as cut).
   */
  async settled(graceMs = 2_000): Promise<RecordedExchange[]> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const outcome = await Promise.race([Promise.all(this.pending), late]);
    clearTimeout(timer);
    if (outcome === 'late')
      for (const exchange of this.exchanges)
        if (exchange.status !== undefined && exchange.responseBody === undefined) exchange.error ??= 'the response was still open when the probe ended';
    return this.exchanges;
  }
}
