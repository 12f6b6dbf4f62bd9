/** A message that carries, or echoes, the id that pairs a reply with its request. */
interface WithRequestId {
  type: string;
  requestId?: string;
}

type WithoutRequestId<M> = M extends unknown ? Omit<M, 'requestId'> : never;

export interface RequestOptions {
  /** A newer request on the same channel supersedes this one: it settles with undefined (e.g. a suggestion list for an older prefix). */
  channel?: string;
  /** Settle with undefined if no reply came by then (a host that does not answer this request). */
  timeoutMs?: number;
}

/**
 * The one request/reply helper of a page (the pattern of the PR extension's webviews): `request()` posts
 * a message with a fresh `requestId` and returns a promise settled by the host's reply that echoes it,
 * errors included (they travel back as reply messages, e.g. `tester/error`). Features keep no ids or
 * pending fields of their own; a late reply to a superseded, timed-out or cancelled request is dropped here.
 */
export class HostRequests<Out extends WithRequestId, In extends WithRequestId> {
  private counter = 0;
  private readonly pending = new Map<string, (reply: In | undefined) => void>();
  private readonly latest = new Map<string, string>();

  constructor(private readonly post: (message: Out) => void) {}

  request<Reply extends In>(message: WithoutRequestId<Out>, options: RequestOptions = {}): Promise<Reply | undefined> {
    const requestId = `r${(++this.counter).toString(36)}`;
    const { channel } = options;
    if (channel) {
      this.cancel(channel);
      this.latest.set(channel, requestId);
    }
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.pending.set(requestId, (reply) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        if (channel && this.latest.get(channel) === requestId) this.latest.delete(channel);
        resolve(reply as Reply | undefined);
      });
      if (options.timeoutMs !== undefined) timer = setTimeout(() => this.pending.get(requestId)?.(undefined), options.timeoutMs);
      this.post({ ...message, requestId } as unknown as Out);
    });
  }

  /** A message from the host: settles the request it answers. False when nothing waits for it (not a reply, or a late one). */
  settle(message: In): boolean {
    const settle = message.requestId === undefined ? undefined : this.pending.get(message.requestId);
    settle?.(message);
    return settle !== undefined;
  }

  /** Settles the channel's request with undefined: its answer is no longer wanted (the popup closed). */
  cancel(channel: string): void {
    const requestId = this.latest.get(channel);
    if (requestId) this.pending.get(requestId)?.(undefined);
  }
}
