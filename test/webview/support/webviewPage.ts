import { strict as assert } from 'node:assert';
import type { BrowserContext, Page } from 'playwright-core';
import type { HostToWebview, WebviewToHost } from '../../../src/shared/protocol';
import { acquireEnvironment, releaseEnvironment, type WebviewEnvironment } from './browser';

/** What the fake host puts on the page's window (typed here because the root tsconfig has no DOM). */
export interface PageGlobals {
  __posted: WebviewToHost[];
  __state: unknown;
  __cspViolations: string[];
  __acquireCount: number;
  __cwRenderCounts?: Record<string, number>;
  postMessage(message: unknown, targetOrigin: string): void;
}

export type Posted<T extends WebviewToHost['type']> = Extract<WebviewToHost, { type: T }>;

export interface OpenOptions {
  /** What `getState()` returns at startup, as after a reload. */
  state?: unknown;
  /** Installs `window.__cwRenderCounts` so components count their renders. */
  countRenders?: boolean;
  viewport?: { width: number; height: number };
  /** Which page: the sidebar chat (default), the Tool Tester panel or the wiki panel. */
  page?: PageName;
}

export type PageName = 'chat' | 'tester' | 'wiki';

/** Each page's document on the test server and the message it posts once it has started. */
const PAGES: Record<PageName, { html: string; ready: string }> = {
  chat: { html: 'index.html', ready: 'webview/ready' },
  tester: { html: 'tester.html', ready: 'tester/ready' },
  wiki: { html: 'wiki.html', ready: 'wiki/ready' },
};

/**
 * Stands in for VS Code's `acquireVsCodeApi` (which throws on a second call) and records posts,
 * state and CSP violations. Injected before any page script, as VS Code injects its API.
 */
function fakeHostScript(options: OpenOptions): string {
  return `(() => {
    window.__posted = [];
    window.__state = ${JSON.stringify(options.state ?? null)} ?? undefined;
    window.__cspViolations = [];
    window.__acquireCount = 0;
    ${options.countRenders ? 'window.__cwRenderCounts = {};' : ''}
    window.acquireVsCodeApi = () => {
      if (++window.__acquireCount > 1) throw new Error('An instance of the VS Code API has already been acquired');
      return Object.freeze({
        postMessage: (message) => { window.__posted.push(JSON.parse(JSON.stringify(message))); },
        getState: () => window.__state,
        setState: (state) => { window.__state = JSON.parse(JSON.stringify(state)); return state; },
      });
    };
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  })();`;
}

/** One webview page in its own browser context, with everything that left it or went wrong recorded. */
export class WebviewPage {
  readonly requests: string[] = [];
  readonly errors: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    readonly origin: string,
    private readonly pageName: PageName = 'chat',
  ) {}

  /** A new browser context and page with the fake host installed; `load()` then opens the webview. */
  static async create(env: WebviewEnvironment, options: OpenOptions = {}): Promise<WebviewPage> {
    const context = await env.browser.newContext({ viewport: options.viewport ?? { width: 420, height: 800 } });
    const page = await context.newPage();
    const view = new WebviewPage(page, context, env.origin, options.page);
    page.on('request', (request) => view.requests.push(request.url()));
    page.on('pageerror', (error) => view.errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => message.type() === 'error' && view.errors.push(`console: ${message.text()}`));
    await page.addInitScript(fakeHostScript(options));
    return view;
  }

  static async open(env: WebviewEnvironment, options: OpenOptions = {}): Promise<WebviewPage> {
    const view = await WebviewPage.create(env, options);
    await view.load();
    return view;
  }

  /** (Re)loads the webview from scratch, like VS Code showing the view: a fresh document, fake host and records. */
  async load(): Promise<void> {
    this.requests.length = 0;
    this.errors.length = 0;
    const { html, ready } = PAGES[this.pageName];
    await this.page.goto(`${this.origin}/${html}`, { waitUntil: 'domcontentloaded' });
    await eventually(async () =>
      assert.ok(
        (await this.posted()).some((m) => (m.type as string) === ready),
        `the page posted ${ready}`,
      ),
    );
  }

  async send(...messages: HostToWebview[]): Promise<void> {
    await this.page.evaluate((list) => {
      const page = globalThis as unknown as PageGlobals;
      for (const message of list) page.postMessage(message, '*');
    }, messages);
  }

  async posted(): Promise<WebviewToHost[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  }

  async postedOfType<T extends WebviewToHost['type']>(type: T): Promise<Array<Posted<T>>> {
    return (await this.posted()).filter((m): m is Posted<T> => m.type === type);
  }

  /** Waits until at least `count` messages of `type` were posted and returns the last. */
  async waitForPosted<T extends WebviewToHost['type']>(type: T, count = 1): Promise<Posted<T>> {
    const found = await eventually(async () => {
      const list = await this.postedOfType(type);
      assert.ok(list.length >= count, `expected ${count} × ${type}, posted: ${JSON.stringify(await this.posted())}`);
      return list;
    });
    return found[found.length - 1];
  }

  /** Waits for a message of `type` that satisfies `matches` (e.g. the debounced request for the final text). */
  async waitForPostedMatching<T extends WebviewToHost['type']>(type: T, matches: (message: Posted<T>) => boolean): Promise<Posted<T>> {
    return eventually(async () => {
      const found = (await this.postedOfType(type)).filter(matches);
      assert.ok(found.length > 0, `no matching ${type}; posted: ${JSON.stringify(await this.posted())}`);
      return found[found.length - 1];
    });
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (globalThis as unknown as PageGlobals).__posted = [];
    });
  }

  async savedState(): Promise<unknown> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__state);
  }

  async renderCounts(): Promise<Record<string, number>> {
    return this.page.evaluate(() => ({ ...(globalThis as unknown as PageGlobals).__cwRenderCounts }));
  }

  async resetRenderCounts(): Promise<void> {
    await this.page.evaluate(() => {
      (globalThis as unknown as PageGlobals).__cwRenderCounts = {};
    });
  }

  /** Everything that went wrong: requests to any other origin, CSP violations, page errors, a second `acquireVsCodeApi`. */
  async problems(): Promise<string[]> {
    const foreign = this.requests.filter((url) => !url.startsWith(`${this.origin}/`)).map((url) => `request left the page: ${url}`);
    const globals = await this.page.evaluate(() => {
      const page = globalThis as unknown as PageGlobals;
      return { csp: page.__cspViolations, acquired: page.__acquireCount };
    });
    const csp = globals.csp.map((v) => `CSP violation: ${v}`);
    const acquired = globals.acquired === 1 ? [] : [`acquireVsCodeApi called ${globals.acquired} times`];
    return [...foreign, ...csp, ...acquired, ...this.errors];
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/** Retries `check` until it stops throwing (Playwright's auto-waiting, for plain assertions). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Mocha wiring for a webview test file: a fresh page per test, and after each test the proof that
 * nothing left the page (no foreign request, no CSP violation, no page error).
 */
export function useWebview(options: OpenOptions = {}): { view: () => WebviewPage; env: () => WebviewEnvironment } {
  let env: WebviewEnvironment | undefined;
  let current: WebviewPage | undefined;
  before(async function () {
    this.timeout(60_000);
    env = await acquireEnvironment();
    // One page per file, reloaded per test: a fresh document each time without a new renderer process.
    current = await WebviewPage.create(env, options);
  });
  after(async () => {
    await current?.close();
    current = undefined;
    releaseEnvironment();
  });
  beforeEach(async () => {
    await current!.load();
  });
  afterEach(async () => {
    assert.deepEqual(await current!.problems(), [], 'the page stayed offline and clean');
  });
  return {
    view: () => {
      assert.ok(current, 'the page is open');
      return current;
    },
    env: () => env!,
  };
}
