import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { buildWebview } from '../../../webview-ui/build.mjs';

/** Debian's chromium (real-vscode.md); `CHROMIUM_PATH` points elsewhere. Playwright's own download never works offline. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The nonce the test page's CSP allows, like the real host's per-load nonce. */
export const NONCE = 'cwTestNonce0123456789';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json', '.html': 'text/html' };

/**
 * One Chromium and one static server for every webview test file in the process. The bundle is
 * built once, with the same `buildWebview` the extension build calls, into a temporary folder.
 */
export interface WebviewEnvironment {
  browser: Browser;
  /** `http://127.0.0.1:PORT`: the only origin the page may ever request. */
  origin: string;
  /** Paths the static server was asked for, to prove nothing else was fetched. */
  served: string[];
}

let shared: Promise<WebviewEnvironment> | undefined;
let users = 0;
let closeTimer: NodeJS.Timeout | undefined;
let teardown: (() => Promise<void>) | undefined;

export async function acquireEnvironment(): Promise<WebviewEnvironment> {
  users++;
  clearTimeout(closeTimer);
  shared ??= start();
  return shared;
}

/** Files run one after another: the browser lingers briefly so the next file reuses it instead of relaunching. */
export function releaseEnvironment(): void {
  if (--users > 0) return;
  closeTimer = setTimeout(() => {
    const stop = teardown;
    shared = teardown = undefined;
    void stop?.();
  }, 300);
}

async function start(): Promise<WebviewEnvironment> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`);
  const outdir = mkdtempSync(join(tmpdir(), 'codewiki-webview-'));
  await buildWebview({ outdir, production: true });
  const served: string[] = [];
  const server = await listen(outdir, served);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  teardown = async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    rmSync(outdir, { recursive: true, force: true });
  };
  return { browser, origin, served };
}

function listen(outdir: string, served: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    served.push(path);
    const origin = `http://${request.headers.host}`;
    if (path === '/index.html') return send(response, 200, TYPES['.html'], pageHtml(origin));
    if (path === '/tester.html') return send(response, 200, TYPES['.html'], pageHtml(origin, 'tester.js'));
    if (path === '/wiki.html') return send(response, 200, TYPES['.html'], pageHtml(origin, 'wiki.js'));
    // A top-level test page asks for a favicon; a real webview (an iframe) never does.
    if (path === '/favicon.ico') return send(response, 204, 'image/x-icon', '');
    const file = join(outdir, path.replace(/^\/+/, ''));
    if (!/^\/[\w.-]+$/.test(path) || !existsSync(file)) return send(response, 404, 'text/plain', 'not found');
    send(response, 200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function send(response: import('node:http').ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

/**
 * The page the real host will serve, with a CSP at least as strict as the host's: scripts only by
 * nonce, styles and fonts only from the bundle's origin (not even 'unsafe-inline': Lit's adopted
 * stylesheets need none), images only as data: URIs. CSP-breaking code fails the tests (security.md #4).
 */
export function pageHtml(origin: string, script = 'main.js'): string {
  const csp = `default-src 'none'; script-src 'nonce-${NONCE}'; style-src ${origin}; font-src ${origin}; img-src ${origin} data:;`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0"><title>CodeWiki</title></head>
<body><script nonce="${NONCE}" src="${origin}/${script}"></script></body></html>`;
}
