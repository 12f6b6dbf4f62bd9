import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { CLI } from '../../support/runCli';

/**
 * A small stand-in for a GitHub Actions runner, enough to run the docs' workflows for real: every `run:` step
 * goes to bash as GitHub runs it (`bash --noprofile --norc -eo pipefail`, with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
 * and RUNNER_TEMP), `${{ … }}` expressions are replaced from a fixed context (an expression it does not know is
 * an error, so the workflow cannot grow an untested one), and the few actions the workflows use are played
 * locally: checkout clones the test's repository, artifacts are folders. The step that installs the CLI from a
 * clone is replaced by a `codewiki` on PATH that runs the built dist/cli.js and records every call.
 */

export interface WorkflowStep {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}

export interface WorkflowJob {
  needs?: string | string[];
  if?: string;
  outputs?: Record<string, string>;
  strategy?: { matrix?: Record<string, Array<string | number>> };
  env?: Record<string, string>;
  steps: WorkflowStep[];
}

export interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

export function readWorkflow(file: string): Workflow {
  return yaml.load(readFileSync(file, 'utf8')) as Workflow;
}

/** One call of `codewiki` from a step: its arguments and exit status. */
export interface CliCall {
  args: string;
  status: number;
}

export interface JobRun {
  /** The job's checkout. */
  workspace: string;
  outputs: Record<string, string>;
  cliCalls: CliCall[];
  summary: string;
}

export interface RunnerOptions {
  /** The repository `actions/checkout` clones. */
  repository: () => string;
  /** Values for `vars.*`, `secrets.*`, `github.*` and the like. */
  context: Record<string, string>;
  /** Where upload-artifact puts artifacts and download-artifact finds them. */
  artifactsDir: string;
  /** Called for `peter-evans/create-pull-request` with the job's checkout and the step's inputs. */
  onPullRequest: (workspace: string, inputs: Record<string, string>) => void;
}

const INSTALL_STEP = /npm install -g \./;

export class WorkflowRunner {
  private readonly shimDir: string;
  private readonly callsFile: string;
  /** Every folder the runner made, removed by cleanup(). */
  private readonly tempDirs: string[] = [];

  constructor(
    readonly workflow: Workflow,
    private readonly options: RunnerOptions,
  ) {
    const dir = this.tempDir('codewiki-runner-');
    this.shimDir = join(dir, 'bin');
    this.callsFile = join(dir, 'calls.tsv');
    mkdirSync(this.shimDir);
    // What `npm install -g .` of a CodeWiki clone puts on PATH, with each call's status recorded.
    writeFileSync(
      join(this.shimDir, 'codewiki'),
      `#!/bin/sh\n"${process.execPath}" "${CLI}" "$@"\nstatus=$?\nprintf '%s\\t%s\\n' "$status" "$*" >> "${this.callsFile}"\nexit $status\n`,
    );
    chmodSync(join(this.shimDir, 'codewiki'), 0o755);
  }

  cleanup(): void {
    for (const dir of this.tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  /** Evaluates a job's `if:` in the runner's context plus the outputs of the jobs it needs. */
  jobRuns(name: string, needs: Record<string, Record<string, string>>): boolean {
    const condition = this.workflow.jobs[name]!.if;
    return condition === undefined || evaluateCondition(condition, (key) => this.lookup(key, { needs }));
  }

  /** Runs one job (one matrix entry) to its end; a failing step throws with its output. */
  async runJob(name: string, options: { matrix?: Record<string, string>; needs?: Record<string, Record<string, string>> } = {}): Promise<JobRun> {
    const job = this.workflow.jobs[name] ?? fail(`the workflow has no job "${name}"`);
    const runnerTemp = this.tempDir(`codewiki-runner-${name}-`);
    const workspace = join(runnerTemp, 'workspace');
    const outputFile = join(runnerTemp, 'github-output');
    const summaryFile = join(runnerTemp, 'step-summary');
    writeFileSync(summaryFile, '');
    const steps: Record<string, Record<string, string>> = {};
    const scope = { matrix: options.matrix ?? {}, needs: options.needs ?? {}, steps, runnerTemp };
    const expand = (text: string) => text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, key: string) => this.lookup(key, scope));
    const callsBefore = this.calls().length;
    const baseEnv = this.baseEnv(runnerTemp);
    for (const [index, step] of job.steps.entries()) {
      const label = `${name} step ${index + 1} (${step.name ?? step.uses ?? step.id})`;
      if (step.if !== undefined && step.if !== 'always()') fail(`${label}: the runner only knows if: always()`);
      if (step.uses) {
        this.useAction(step, label, workspace, (value) => expand(String(value)));
        continue;
      }
      if (!step.run) fail(`${label}: neither uses nor run`);
      if (INSTALL_STEP.test(step.run)) continue; // the shim on PATH stands in for the installed CLI
      writeFileSync(outputFile, '');
      const env = {
        ...baseEnv,
        ...expandAll(this.workflow.env, expand),
        ...expandAll(job.env, expand),
        ...expandAll(step.env, expand),
        GITHUB_OUTPUT: outputFile,
      };
      const result = await runBash(expand(step.run), workspace, env);
      if (result.code !== 0) fail(`${label} exited ${result.code}:\n${step.run}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
      if (step.id) steps[step.id] = parseOutputs(readFileSync(outputFile, 'utf8'));
    }
    const outputs = Object.fromEntries(Object.entries(job.outputs ?? {}).map(([key, value]) => [key, expand(value)]));
    return { workspace, outputs, cliCalls: this.calls().slice(callsBefore), summary: readFileSync(summaryFile, 'utf8') };
  }

  private useAction(step: WorkflowStep, label: string, workspace: string, expand: (value: unknown) => string): void {
    const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, expand(value)]));
    const action = step.uses!.replace(/@.*$/, '');
    if (action === 'actions/checkout') {
      gitClone(this.options.repository(), workspace);
    } else if (action === 'actions/setup-node') {
      // The test runs on the node that runs it.
    } else if (action === 'actions/upload-artifact') {
      const from = inputs.path ?? fail(`${label}: no path`);
      if (!existsSync(from)) {
        if (inputs['if-no-files-found'] === 'ignore') return;
        fail(`${label}: ${from} does not exist`);
      }
      const to = join(this.options.artifactsDir, inputs.name ?? fail(`${label}: no name`));
      if (existsSync(to)) fail(`${label}: a second artifact named ${inputs.name}`);
      // A folder's contents go up relative to it; a file goes up alone.
      if (statSync(from).isDirectory()) cpSync(from, to, { recursive: true });
      else cpSync(from, join(to, from.split('/').pop()!));
    } else if (action === 'actions/download-artifact') {
      const pattern = /^([\w.-]+)\*$/.exec(inputs.pattern ?? '') ?? fail(`${label}: the runner knows only "prefix-*" patterns`);
      if (inputs['merge-multiple'] !== 'true') fail(`${label}: the runner merges only with merge-multiple: true`);
      const names = readdirSync(this.options.artifactsDir).filter((artifact) => artifact.startsWith(pattern[1]!));
      // GitHub does not promise an order: the last shard first, so a merge that depends on order shows here.
      for (const artifact of names.sort().reverse())
        cpSync(join(this.options.artifactsDir, artifact), join(workspace, inputs.path ?? '.'), { recursive: true });
    } else if (action === 'peter-evans/create-pull-request') {
      this.options.onPullRequest(workspace, inputs);
    } else fail(`${label}: the runner does not know the action ${step.uses}`);
  }

  private lookup(
    key: string,
    scope: {
      matrix?: Record<string, string>;
      needs?: Record<string, Record<string, string>>;
      steps?: Record<string, Record<string, string>>;
      runnerTemp?: string;
    },
  ): string {
    const [head, ...rest] = key.split('.');
    const found =
      head === 'matrix'
        ? scope.matrix?.[rest.join('.')]
        : head === 'needs' && rest[1] === 'outputs'
          ? scope.needs?.[rest[0]!]?.[rest[2]!]
          : head === 'steps' && rest[1] === 'outputs'
            ? (scope.steps?.[rest[0]!]?.[rest[2]!] ?? '')
            : key === 'runner.temp'
              ? scope.runnerTemp
              : this.options.context[key];
    return found ?? fail(`the test's runner has no value for \${{ ${key} }}`);
  }

  private baseEnv(runnerTemp: string): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !/^(CODEWIKI_|OPENAI_|GITHUB_|RUNNER_)/.test(key)) env[key] = value;
    }
    return {
      ...env,
      PATH: `${this.shimDir}:${env.PATH ?? ''}`,
      RUNNER_TEMP: runnerTemp,
      GITHUB_STEP_SUMMARY: join(runnerTemp, 'step-summary'),
      GITHUB_SHA: this.options.context['github.sha'] ?? '',
      // Each job runs on a fresh runner: its own index cache, and never the local model.
      CODEWIKI_CACHE_DIR: join(runnerTemp, 'codewiki-cache'),
      CODEWIKI_LOCAL_MODEL: 'off',
    };
  }

  private tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.tempDirs.push(dir);
    return dir;
  }

  private calls(): CliCall[] {
    if (!existsSync(this.callsFile)) return [];
    return readFileSync(this.callsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [status, args] = line.split('\t') as [string, string];
        return { status: Number(status), args };
      });
  }
}

/** `a == 'b' && c == 'd'`: the only condition form the workflows use. */
export function evaluateCondition(condition: string, lookup: (key: string) => string): boolean {
  return condition.split('&&').every((term) => {
    const match = /^\s*([\w.-]+)\s*==\s*(?:'([^']*)'|([\w.-]+))\s*$/.exec(term) ?? fail(`the runner cannot evaluate "${term.trim()}"`);
    return lookup(match[1]!) === (match[2] ?? lookup(match[3]!));
  });
}

export function gitIn(root: string, ...args: string[]): Promise<string> {
  return runCommand('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=CI', '-c', 'commit.gpgsign=false', ...args], root).then((result) => {
    if (result.code !== 0) fail(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout.trim();
  });
}

function gitClone(from: string, to: string): void {
  execFileSync('git', ['clone', '-q', from, to]);
}

function runBash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = join(env.RUNNER_TEMP!, `step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  return runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], cwd, env);
}

function runCommand(
  command: string,
  args: string[],
  cwd: string,
  env?: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function expandAll(values: Record<string, string> | undefined, expand: (text: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, expand(String(value))]));
}

function parseOutputs(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

function fail(message: string): never {
  throw new Error(message);
}
