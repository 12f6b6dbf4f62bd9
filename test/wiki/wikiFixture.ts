import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS, type ModelProvider } from '../../src/core/llm/modelProvider';
import { makeTempFolder, type TempFolder } from '../tools/helpers/tempWorkspace';

export const BUILTIN_PROMPTS = join(__dirname, '..', '..', 'action-prompts');

/**
 * A folder name built to break out of a Mermaid label (`"]`), start a `click` statement and an init
 * directive, and end a Markdown link: the wiki must draw it as a plain box and write it as plain text.
 */
export const HOSTILE_FOLDER = 'evil"]; click m0 call alert(1) %%{init} [x](y)';

/** Doc-comment text that would be a script link and a remote image if it reached a page unescaped. */
export const HOSTILE_DOC = 'Trims text. [click me](javascript:alert(1)) ![x](https://evil.example/a.png) <img src=x onerror=alert(1)>';

/**
 * A small repository: five folders of TypeScript that import each other, a two-file folder (`tiny`) that
 * leans on `util` (three imports) more than on `core` (one), a two-file package (`plugin`, with its own
 * package.json), tests, docs and a README.
 * `TaskRegistry` (core/registry.ts) is imported by most files; `formatRunSummary` (core/runner.ts) once.
 */
export function wikiRepoFiles(): Record<string, string> {
  return {
    'README.md': '# Taskbox\n\nRuns tasks. See `core/engine.ts`.\n',
    'docs/guide.md': '# Guide\n\n## Running tasks\n\nCall `Engine.start`.\n',
    'core/types.ts': ['/** What a task is. */', 'export interface TaskSpec {', '  name: string;', '  run(): Promise<void>;', '}', ''].join('\n'),
    'core/registry.ts': [
      "import type { TaskSpec } from './types';",
      '',
      '/** Every task the engine knows, by name. */',
      'export class TaskRegistry {',
      '  private readonly tasks = new Map<string, TaskSpec>();',
      '',
      '  registerTask(task: TaskSpec): void {',
      '    this.tasks.set(task.name, task);',
      '  }',
      '',
      '  lookupTask(name: string): TaskSpec | undefined {',
      '    return this.tasks.get(name);',
      '  }',
      '}',
      '',
    ].join('\n'),
    'core/events.ts': [
      "import { TaskRegistry } from './registry';",
      '',
      '/** Tells listeners when tasks start and end. */',
      'export class EventBus {',
      '  constructor(readonly registry: TaskRegistry) {}',
      '  emitTaskEvent(name: string): void {',
      '    void name;',
      '  }',
      '}',
      '',
    ].join('\n'),
    'core/engine.ts': [
      "import { TaskRegistry } from './registry';",
      "import { EventBus } from './events';",
      "import { joinPath } from '../util/paths';",
      '',
      '/** Runs the registered tasks in order. */',
      'export class Engine {',
      '  readonly bus: EventBus;',
      '  constructor(readonly registry: TaskRegistry) {',
      '    this.bus = new EventBus(registry);',
      '  }',
      '  workDir(): string {',
      "    return joinPath('tmp', 'work');",
      '  }',
      '}',
      '',
    ].join('\n'),
    'core/runner.ts': [
      "import { TaskRegistry } from './registry';",
      "import { Engine } from './engine';",
      '',
      'export function runAllTasks(registry: TaskRegistry): Engine {',
      '  return new Engine(registry);',
      '}',
      '',
      'export function formatRunSummary(count: number): string {',
      '  return `${count} tasks`;',
      '}',
      '',
    ].join('\n'),
    'util/strings.ts': [
      `/** ${HOSTILE_DOC} */`,
      'export function trimText(text: string): string {',
      '  return text.trim();',
      '}',
      '',
      'export function padLabel(text: string, width: number): string {',
      '  return text.padEnd(width);',
      '}',
      '',
    ].join('\n'),
    'util/paths.ts': [
      "import { trimText } from './strings';",
      '',
      'export function joinPath(...parts: string[]): string {',
      "  return parts.map(trimText).join('/');",
      '}',
      '',
    ].join('\n'),
    'util/log.ts': [
      "import { padLabel } from './strings';",
      '',
      'export function logLine(label: string, message: string): void {',
      '  console.log(padLabel(label, 8), message);',
      '}',
      '',
    ].join('\n'),
    'util/clock.ts': [
      "import { logLine } from './log';",
      '',
      'export function elapsedSince(start: number): number {',
      '  const elapsed = Date.now() - start;',
      "  logLine('clock', String(elapsed));",
      '  return elapsed;',
      '}',
      '',
    ].join('\n'),
    'tiny/format.ts': [
      "import type { TaskSpec } from '../core/types';",
      "import { padLabel, trimText } from '../util/strings';",
      '',
      'export function formatColumns(cells: string[]): string {',
      "  return cells.map((cell) => padLabel(trimText(cell), 10)).join('');",
      '}',
      '',
      'export function formatTaskName(task: TaskSpec): string {',
      '  return formatColumns([task.name]);',
      '}',
      '',
    ].join('\n'),
    'tiny/color.ts': [
      "import { trimText } from '../util/strings';",
      "import { logLine } from '../util/log';",
      '',
      'export function colorizeText(text: string): string {',
      "  logLine('color', text);",
      '  return `\\u001b[32m${trimText(text)}\\u001b[0m`;',
      '}',
      '',
    ].join('\n'),
    'cli/main.ts': [
      "import { TaskRegistry } from '../core/registry';",
      "import { runAllTasks } from '../core/runner';",
      "import { parseArguments } from './args';",
      "import { registerCommands } from './commands';",
      '',
      'export function mainEntry(argv: string[]): void {',
      '  const registry = new TaskRegistry();',
      '  registerCommands(registry, parseArguments(argv));',
      '  runAllTasks(registry);',
      '}',
      '',
    ].join('\n'),
    'cli/args.ts': [
      "import { trimText } from '../util/strings';",
      '',
      'export function parseArguments(argv: string[]): string[] {',
      '  return argv.map(trimText);',
      '}',
      '',
    ].join('\n'),
    'cli/commands.ts': [
      "import { TaskRegistry } from '../core/registry';",
      "import { printResult } from './output';",
      '',
      'export function registerCommands(registry: TaskRegistry, names: string[]): void {',
      '  for (const name of names) registry.registerTask({ name, run: async () => printResult(name) });',
      '}',
      '',
    ].join('\n'),
    'cli/output.ts': [
      "import { formatRunSummary } from '../core/runner';",
      "import { logLine } from '../util/log';",
      '',
      'export function printResult(name: string): void {',
      '  logLine(name, formatRunSummary(1));',
      '}',
      '',
    ].join('\n'),
    'plugin/package.json': '{ "name": "taskbox-plugin", "version": "1.0.0", "main": "src/index.ts" }\n',
    'plugin/src/index.ts': [
      "import { TaskRegistry } from '../../core/registry';",
      "import { installHooks } from './hooks';",
      '',
      'export function activatePlugin(registry: TaskRegistry): void {',
      '  installHooks(registry);',
      '}',
      '',
    ].join('\n'),
    'plugin/src/hooks.ts': [
      "import { TaskRegistry } from '../../core/registry';",
      '',
      'export function installHooks(registry: TaskRegistry): void {',
      "  registry.registerTask({ name: 'hook', run: async () => undefined });",
      '}',
      '',
    ].join('\n'),
    [`${HOSTILE_FOLDER}/alpha.ts`]: [
      "import { logLine } from '../util/log';",
      '',
      'export function alphaStep(): void {',
      "  logLine('alpha', 'step');",
      '}',
      '',
    ].join('\n'),
    [`${HOSTILE_FOLDER}/beta.ts`]: [
      "import { logLine } from '../util/log';",
      "import { alphaStep } from './alpha';",
      '',
      'export function betaStep(): void {',
      '  alphaStep();',
      "  logLine('beta', 'step');",
      '}',
      '',
    ].join('\n'),
    [`${HOSTILE_FOLDER}/gamma.ts`]: ["import { betaStep } from './beta';", '', 'export function gammaStep(): void {', '  betaStep();', '}', ''].join('\n'),
    [`${HOSTILE_FOLDER}/delta.ts`]: [
      "import { gammaStep } from './gamma';",
      "import { trimText } from '../util/strings';",
      '',
      'export function deltaStep(): string {',
      '  gammaStep();',
      "  return trimText(' delta ');",
      '}',
      '',
    ].join('\n'),
    'tests/engine.test.ts': [
      "import { TaskRegistry } from '../core/registry';",
      "import { Engine } from '../core/engine';",
      '',
      'export function testEngineStarts(): void {',
      '  new Engine(new TaskRegistry());',
      '}',
      '',
    ].join('\n'),
    'tests/util.test.ts': ["import { trimText } from '../util/strings';", '', 'export function testTrimText(): void {', "  trimText(' x ');", '}', ''].join(
      '\n',
    ),
  };
}

/** The fixture's modules by id, as the wiki should split them. */
export const EXPECTED_MODULES = ['cli', 'core', HOSTILE_FOLDER, 'plugin', 'util'].sort();

export interface WikiRepoOptions {
  extra?: Record<string, string>;
  git?: boolean;
  models?: ModelProvider;
}

/** A real temporary repository with the fixture's files (plus `extra`), and an engine over it as one CLI run opens it. */
export class WikiRepo {
  readonly folder: TempFolder;
  /** The fixture's commit, when it is a git repository. */
  readonly commit: string | undefined;
  private current: CodewikiEngine | undefined;

  private constructor(private readonly options: WikiRepoOptions) {
    this.folder = makeTempFolder('codewiki-wiki-');
    this.folder.write({ ...wikiRepoFiles(), ...options.extra });
    this.commit = options.git ? gitCommitAll(this.folder.path, 'fixture') : undefined;
  }

  static async open(options: WikiRepoOptions = {}): Promise<WikiRepo> {
    const repo = new WikiRepo(options);
    await repo.nextRun();
    return repo;
  }

  get root(): string {
    return this.folder.path;
  }

  get engine(): CodewikiEngine {
    return this.current ?? assert.fail('the repository is closed');
  }

  /** A new engine with a new index over the same folder: what the next `codewiki wiki` sees after files changed. */
  async nextRun(): Promise<CodewikiEngine> {
    await this.current?.codeIndex.dispose();
    this.current = await createCodewikiEngine({
      workspaceRoot: this.folder.path,
      builtinPromptsDir: BUILTIN_PROMPTS,
      models: this.options.models ?? NO_MODELS,
    });
    return this.current;
  }

  /** Replaces `from` with `to` in a file of the repository (the text must be there). */
  edit(path: string, from: string, to: string): void {
    const file = join(this.folder.path, path);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes(from), `${path} has no ${JSON.stringify(from)}`);
    writeFileSync(file, text.replace(from, to));
  }

  async close(): Promise<void> {
    await this.current?.codeIndex.dispose();
    this.current = undefined;
    this.folder.cleanup();
  }
}

/** `git init` and one commit of everything; returns the commit's full hash. */
export function gitCommitAll(root: string, message: string): string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=Test', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}
