import type { HostToTester, TesterParse, TesterProbe, TesterRun, TesterState, TesterToHost } from '../../../src/shared/toolTesterProtocol';
import type { HostApi } from '../hostApi';

/** Everything the Tool Tester page shows. The host owns the tools and settings; the page owns what the user typed. */
export interface TesterView {
  state?: TesterState;
  /** Which preview is shown: what the model gets with native tool calls, or under the text protocol. */
  previewProtocol: 'native' | 'text';
  pasted: string;
  parse?: TesterParse;
  /** Set while a parse or run is out: its id, so a late answer to an older request is ignored. */
  pending?: { requestId: string; kind: 'parse' | 'run'; index?: number };
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
  private nextId = 1;

  constructor(private readonly host: HostApi<TesterToHost>) {
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
    switch (message.type) {
      case 'tester/state':
        return this.update({ state: message.state });
      case 'tester/parsed':
        if (this.current.pending?.requestId !== message.requestId) return;
        return this.update({ parse: message.parse, pending: undefined, error: undefined });
      case 'tester/ran': {
        const pending = this.current.pending;
        if (pending?.requestId !== message.requestId) return;
        return this.update({ run: { ...message.run, index: pending.index ?? 0 }, pending: undefined, error: undefined });
      }
      case 'tester/probe':
        return this.update({ probe: { status: message.status, result: message.probe, error: message.error } });
      case 'tester/error':
        if (message.requestId && this.current.pending?.requestId !== message.requestId) return;
        return this.update({ error: message.message, pending: message.requestId ? undefined : this.current.pending });
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

  parse(): void {
    if (!this.current.pasted.trim()) return this.update({ error: 'Paste a tool call first.' });
    const requestId = this.requestId();
    this.update({ pending: { requestId, kind: 'parse' }, run: undefined, error: undefined });
    this.host.postMessage({ type: 'tester/parse', requestId, text: this.current.pasted });
  }

  run(index: number): void {
    const requestId = this.requestId();
    this.update({ pending: { requestId, kind: 'run', index }, run: undefined, error: undefined });
    this.host.postMessage({ type: 'tester/run', requestId, text: this.current.pasted, index });
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

  private requestId(): string {
    return `t${this.nextId++}`;
  }

  private persist(): void {
    this.host.setState({ pasted: this.current.pasted, previewProtocol: this.current.previewProtocol });
  }

  private update(change: Partial<TesterView>): void {
    this.current = { ...this.current, ...change };
    for (const listener of this.listeners) listener(this.current);
  }
}
