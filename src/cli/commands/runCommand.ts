import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { ActionPromptError } from '../../core/yaml/diagnostics';
import type { CompiledActionPrompt } from '../../core/actionPrompt/compiledActionPrompt';
import { isPromptFile } from '../../core/actionPrompt/promptCatalog';
import { missingRequiredInputs, resolveRunInputs } from '../../core/actionPrompt/runInputs';
import type { CodewikiEngine } from '../../core/codewikiEngine';
import type { ExecutorEvent } from '../../core/engine/executorEvents';
import type { RunLog } from '../../core/engine/runLog';
import { renderValue } from '../../core/values/renderValue';
import { askMissingInputs } from '../askMissingInputs';
import { CliError, EXIT } from '../cliErrors';
import { DEFAULT_BASE_URL, modelProviderFromCli } from '../cliSettings';
import { parseCliArgs } from '../parseCliArgs';
import { ProgressReporter } from '../progressReporter';
import { printPromptPreview } from './printPromptPreview';
import { loadEngine } from './loadEngine';
import { modelUses } from './promptModelUse';
import { promptUsage } from './promptUsage';

export const RUN_USAGE = `codewiki run <file.yaml | built-in id> [options]
  --input name=value   an input value (repeatable)
  --workspace DIR      the workspace to run in (default: the current directory)
  --base-url URL       the model endpoint (env CODEWIKI_BASE_URL; default ${DEFAULT_BASE_URL})
  --model M            the main model (env CODEWIKI_MODEL)
  --tool-model M       the model for LLM-tool steps (env CODEWIKI_TOOL_MODEL; default: the main model)
  --max-input-tokens N the final prompt's input budget (default 24000)
  --log FILE           write the run log (JSON) to FILE
  --dry-run            run the file tools only; print the prompts that would be sent
  --help               this text; with a prompt, that prompt's inputs and their types
The API key comes from CODEWIKI_API_KEY or OPENAI_API_KEY. A prompt that calls no model needs no --model.`;

export async function runCommand(argv: string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; stdin: NodeJS.ReadStream }): Promise<number> {
  const { values, positionals } = parseCliArgs('run', argv, {
    allowPositionals: true,
    options: {
      input: { type: 'string', multiple: true, short: 'i' },
      workspace: { type: 'string', short: 'w' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'tool-model': { type: 'string' },
      'max-input-tokens': { type: 'string' },
      log: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help && positionals.length === 0) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new CliError(`expected one action prompt\n\n${RUN_USAGE}`);
  const dryRun = values['dry-run'] ?? false;
  const models = modelProviderFromCli({ baseUrl: values['base-url'], model: values.model, toolModel: values['tool-model'] }, process.env);
  const maxInputTokens = values['max-input-tokens'] ? positiveInt(values['max-input-tokens'], '--max-input-tokens') : undefined;

  const engine = await loadEngine(values.workspace, models.provider, maxInputTokens);
  for (const warning of engine.warnings) io.stderr.write(`! ${warning}\n`);
  const prompt = await findPrompt(engine, positionals[0]);
  const usesModel = modelUses(prompt, engine.catalog.registry, engine.catalog);
  if (values.help) {
    const where = prompt.source === 'builtin' ? 'built-in' : relative(process.cwd(), prompt.file) || prompt.file;
    io.stdout.write(promptUsage(prompt, where, usesModel));
    return EXIT.ok;
  }
  // Checked only now: a chain of file tools alone runs without any model configured.
  if (!dryRun && usesModel.length && !(await models.ready())) {
    throw new CliError(
      `no model configured: pass --model (and --base-url for servers other than OpenAI), or set CODEWIKI_MODEL; or use --dry-run (this prompt calls a model for ${usesModel[0]})`,
    );
  }
  const given = parseInputFlags(values.input ?? []);
  const missing = missingRequiredInputs(prompt, given);
  if (missing.length && io.stdin.isTTY && io.stderr.isTTY) Object.assign(given, await askMissingInputs(missing, io.stdin, io.stderr));
  const inputs = await resolveRunInputs(prompt, given, engine.workspace);

  return executePrompt(engine, prompt, inputs, { dryRun, logFile: values.log, io });
}

export async function executePrompt(
  engine: CodewikiEngine,
  prompt: CompiledActionPrompt,
  inputs: Record<string, unknown>,
  options: { dryRun: boolean; logFile?: string; io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } },
): Promise<number> {
  const { io } = options;
  const progress = new ProgressReporter(io.stderr);
  const controller = new AbortController();
  let latestLog: RunLog | undefined;
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(EXIT.cancelled); // a second Ctrl-C does not wait
    interrupted = true;
    io.stderr.write('\n■ cancelling…\n');
    controller.abort();
    // The abort closes every request at once; this is only the backstop for a tool that ignores it.
    setTimeout(() => void writeLog(options.logFile, latestLog, 'cancelled').finally(() => process.exit(EXIT.cancelled)), 900).unref();
  };
  process.on('SIGINT', onSigint);
  const onEvent = (event: ExecutorEvent) => {
    progress.handle(event);
    if (event.type === 'llm-token') io.stdout.write(event.text);
    if (event.type === 'prompt-preview') printPromptPreview(io.stdout, event);
  };
  try {
    const result = await engine.executor.run(prompt, inputs, { signal: controller.signal, onEvent, dryRun: options.dryRun });
    latestLog = result.log;
    if (result.status === 'success' && !prompt.finalPrompt && !options.dryRun) io.stdout.write(`${renderOutput(result.output)}\n`);
    else if (result.status === 'success' && !options.dryRun) io.stdout.write('\n');
    await writeLog(options.logFile, result.log);
    return result.status === 'success' ? EXIT.ok : result.status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
  } finally {
    progress.stop();
    process.off('SIGINT', onSigint);
  }
}

async function writeLog(file: string | undefined, log: RunLog | undefined, status?: RunLog['status']): Promise<void> {
  if (!file || !log) return;
  await writeFile(file, `${JSON.stringify(status ? { ...log, status } : log, null, 2)}\n`);
}

async function findPrompt(engine: CodewikiEngine, target: string): Promise<CompiledActionPrompt> {
  if (isPromptFile(target)) {
    try {
      return await engine.catalog.compileFile(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${target}: no such file`);
      throw error;
    }
  }
  const entry = engine.catalog.entry(target);
  if (!entry) throw new CliError(`unknown action prompt "${target}"; run "codewiki list" to see them`);
  if (!entry.prompt) throw new ActionPromptError(entry.diagnostics);
  return entry.prompt;
}

export function parseInputFlags(flags: string[]): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new CliError(`--input ${flag}: expected name=value`);
    inputs[flag.slice(0, eq).trim()] = flag.slice(eq + 1);
  }
  return inputs;
}

function positiveInt(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new CliError(`${flag} ${text}: expected a positive whole number`);
  return value;
}

function renderOutput(output: unknown): string {
  return renderValue(output);
}
