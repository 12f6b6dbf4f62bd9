import type { HostToTester, TesterParse, TesterProbe, TesterRun, TesterState, TesterToHost } from '../../../src/shared/toolTesterProtocol';
import type { HostApi } from '../hostApi';
import { HostRequests } from '../hostRequests';

/** What answers a parse or a run: its result, or the error that stopped it. */
type TesterReply = Extract<HostToTester, { type: 'tester/parsed' | 'tester/ran' | 'tester/error' }>;
/** One parse or run is awaited at a time: a newer one supersedes an older one's answer. */
const CALL_CHANNEL = 'tester-call';

/** Everything the Tool Tester page shows. The host owns the tools and settings; the page owns what the user typed. */
export interface TesterView {
  state?: TesterState;
  /** Which preview is shown: what the model gets with native tool calls, or under the text protocol. */
  previewProtocol: 'native' | 'text';
  pasted: string;
  parse?: TesterParse;
  /** Set while a parse or run is out (a late answer to an older one is dropped by HostRequests). */
  pending?: { kind: 'parse' | 'run'; index?: number };
  run?: TesterRun & { index: number };
  probe: { status: 'idle' | 'running' | 'done'; result?: TesterProbe; error?: string };
  error?: string;
}

type Listener = (view: TesterView) => void;

/**
 * The page's state and what its buttons do, in a plain module so the logic is testable without a DOM
 * (the components only render `view` and call these methods).
 */
export class TesterModel {
  private current: TesterView = { previewProtocol: 'native', pasted: '', probe: { status: 'idle' } };
  private readonly listeners = new Set<Listener>();
  private readonly requests: HostRequests<TesterToHost, HostToTester>;

  constructor(private readonly host: HostApi<TesterToHost>) {
    this.requests = new HostRequests((message) => host.postMessage(message));
    const saved = host.getState() as Partial<Pick<TesterView, 'pasted' | 'previewProtocol'>> | undefined;
    if (typeof saved?.pasted === 'string') this.current.pasted = saved.pasted;
    if (saved?.previewProtocol === 'text') this.current.previewProtocol = 'text';
  }

  get view(): TesterView {
    return this.current;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  receive(message: HostToTester): void {
    if (this.requests.settle(message)) return;
    switch (message.type) {
      case 'tester/state':
        return this.update({ state: message.state });
      case 'tester/probe':
        return this.update({ probe: { status: message.status, result: message.probe, error: message.error } });
      case 'tester/error':
        // An error that answers no request (a request's own arrives through `requests`; a late one is dropped there).
        if (!message.requestId) this.update({ error: message.message });
        return;
    }
  }

  showPreview(protocol: 'native' | 'text'): void {
    this.update({ previewProtocol: protocol });
    this.persist();
  }

  toggleTool(name: string, enabled: boolean): void {
    this.host.postMessage({ type: 'tester/toggle', name, enabled });
  }

  setPasted(text: string): void {
    // What was parsed or run belongs to the old text.
    this.update({ pasted: text, parse: undefined, run: undefined, error: undefined });
    this.persist();
  }

  async parse(): Promise<void> {
    if (!this.current.pasted.trim()) return this.update({ error: 'Paste a tool call first.' });
    this.update({ pending: { kind: 'parse' }, run: undefined, error: undefined });
    this.answered(await this.requests.request<TesterReply>({ type: 'tester/parse', text: this.current.pasted }, { channel: CALL_CHANNEL }), 0);
  }

  async run(index: number): Promise<void> {
    this.update({ pending: { kind: 'run', index }, run: undefined, error: undefined });
    this.answered(await this.requests.request<TesterReply>({ type: 'tester/run', text: this.current.pasted, index }, { channel: CALL_CHANNEL }), index);
  }

  probe(): void {
    this.update({ probe: { status: 'running' } });
    this.host.postMessage({ type: 'tester/probe' });
  }

  cancel(): void {
    this.host.postMessage({ type: 'tester/cancel' });
  }

  useProtocol(protocol: 'native' | 'text'): void {
    this.host.postMessage({ type: 'tester/setProtocol', protocol });
  }

  /** A parse's or run's answer; undefined when a newer request superseded it. */
  private answered(reply: TesterReply | undefined, index: number): void {
    if (reply?.type === 'tester/parsed') this.update({ parse: reply.parse, pending: undefined, error: undefined });
    else if (reply?.type === 'tester/ran') this.update({ run: { ...reply.run, index }, pending: undefined, error: undefined });
    else if (reply?.type === 'tester/error') this.update({ error: reply.message, pending: undefined });
  }

  private persist(): void {
    this.host.setState({ pasted: this.current.pasted, previewProtocol: this.current.previewProtocol });
  }

  private update(change: Partial<TesterView>): void {
    this.current = { ...this.current, ...change };
    for (const listener of this.listeners) listener(this.current);
  }
}
