import type { WebviewToHost } from '../../src/shared/protocol';

/** The webview's only line to the extension host. The page uses `vsCodeHost()`; tests use `FakeHostApi`. */
export interface HostApi<Out = WebviewToHost> {
  postMessage(message: Out): void;
  /** UI state only (draft, open panel): conversations belong to the host. */
  getState(): unknown;
  setState(state: unknown): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let acquired: HostApi<never> | undefined;

/**
 * VS Code throws when `acquireVsCodeApi` is called a second time, so the page acquires it once and
 * shares it. `Out` is the page's own protocol: the chat's by default, the Tool Tester's on that page.
 */
export function vsCodeHost<Out = WebviewToHost>(): HostApi<Out> {
  if (!acquired) {
    const api = acquireVsCodeApi();
    acquired = {
      postMessage: (message) => api.postMessage(message),
      getState: () => api.getState(),
      setState: (state) => api.setState(state),
    };
  }
  return acquired as HostApi<Out>;
}

/** In-memory host for tests of the plain modules: records what was posted. */
export class FakeHostApi implements HostApi {
  readonly posted: WebviewToHost[] = [];
  constructor(private state: unknown = undefined) {}

  postMessage(message: WebviewToHost): void {
    this.posted.push(message);
  }

  getState(): unknown {
    return this.state;
  }

  setState(state: unknown): void {
    this.state = state;
  }

  /** The messages of one type, newest last. */
  ofType<T extends WebviewToHost['type']>(type: T): Array<Extract<WebviewToHost, { type: T }>> {
    return this.posted.filter((m): m is Extract<WebviewToHost, { type: T }> => m.type === type);
  }
}
