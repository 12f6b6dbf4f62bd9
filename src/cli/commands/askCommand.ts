import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AgentRunRecorder,
  AutoApprovalPolicy,
  denyingGate,
  ToolProtocolMemory,
  type AgentEvent,
  type ApprovableKind,
  type ApprovalGate,
} from '../../core/agent';
import { createAgent } from '../../core/createAgent';
import { prefixSlotFile } from '../../core/agent/prefixWarmup';
import { cliCacheDir } from '../../core/codebaseIndex/store/indexLocation';
import type { ModelProvider } from '../../core/llm/modelProvider';
import type { SlotTransfer } from '../../core/llm/promptCacheSlots';
import { CliError, EXIT } from '../cliErrors';
import { DEFAULT_BASE_URL, modelProviderFromCli } from '../cliSettings';
import { agentFilterFrom, togglesFrom, toolProtocolFrom } from './agentFlags';
import { terminalApprovalGate } from './askApprovalGate';
import { AnswerOutput } from './answerOutput';
import { AgentProgress } from './askProgress';
import { withoutIndexTools } from './indexFlags';
import { loadEngine } from './loadEngine';

export const ASK_USAGE = `codewiki ask "<question>" [options]
  --workspace DIR      the workspace to work in (default: the current directory)
  --base-url URL       the model endpoint (env CODEWIKI_BASE_URL; default ${DEFAULT_BASE_URL})
  --model M            the model (env CODEWIKI_MODEL)
  --tool-model M       the model that plans tool use when the server has no tool calling (default: the main model)
  --tools a,b          offer only these tools (see "codewiki tools")
  --no-tools           offer no tools: answer from the question alone
  --no-index           do not start from the code index: no repo map, no candidates with the
                       question, no find_symbol / search_code / repo_map tools
  --agents a,b         offer only these sub-agents (default: every one loaded; "codewiki tools" lists them)
  --exclude-agents a,b do not offer these sub-agents
  --allow KIND         run write or execute tools without asking (repeatable: --allow write --allow execute);
                       read tools always run. Commands that chain or redirect (; && || | > < $( \`) still ask.
  --allow-command CMD  run this command (or it followed by arguments) without asking (repeatable)
  --open FILE          the file you are looking at, as a hint for the agent
  --max-iterations N   tool-calling turns before the agent must answer (default 12)
  --tool-protocol P    auto (default): native tool calls, switching to the text protocol when the server
                       rejects them or the model writes calls as text; native; or text (tools described in
                       the prompt, calls written as <<<[TOOL_REQUEST]>>> blocks: for models without tool support)
  --log FILE           write every iteration and tool call (JSON) to FILE
  --verbose            a line per model call on stderr: prompt tokens (cached), generated tokens, time to
                       first token and speed (llama-server reports its own timings)
Without a terminal, write and execute calls not covered by --allow are denied and the model is told so.`;

type Io = { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; stdin: NodeJS.ReadStream };

/** `codewiki ask`: one agent run; the answer on stdout, one line per tool call on stderr. */
export async function askCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string', short: 'w' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'tool-model': { type: 'string' },
      tools: { type: 'string' },
      'no-tools': { type: 'boolean' },
      'no-index': { type: 'boolean' },
      agents: { type: 'string' },
      'exclude-agents': { type: 'string' },
      allow: { type: 'string', multiple: true },
      'allow-command': { type: 'string', multiple: true },
      open: { type: 'string' },
      'max-iterations': { type: 'string' },
      'tool-protocol': { type: 'string' },
      log: { type: 'string' },
      verbose: { type: 'boolean', short: 'v' },
    },
  });
  const question = positionals.join(' ').trim();
  if (!question) throw new CliError(`expected a question\n\n${ASK_USAGE}`);
  if (values.tools !== undefined && values['no-tools']) throw new CliError('--tools and --no-tools cannot be combined');
  const kinds = (values.allow ?? []).map(approvableKind);
  const maxIterations = values['max-iterations'] === undefined ? undefined : positiveInt(values['max-iterations'], '--max-iterations');
  const toolProtocol = toolProtocolFrom(values['tool-protocol']);
  const models = modelProviderFromCli({ baseUrl: values['base-url'], model: values.model, toolModel: values['tool-model'] }, process.env);
  if (!(await models.ready())) throw new CliError('no model configured: pass --model (and --base-url for servers other than OpenAI), or set CODEWIKI_MODEL');

  const engine = await loadEngine(values.workspace, models.provider);
  for (const warning of engine.warnings) io.stderr.write(`! ${warning}\n`);
  const noIndex = values['no-index'] ?? false;
  const toggles = withoutIndexTools(togglesFrom(values.tools, values['no-tools'] ?? false, engine.agentRegistry.names()), noIndex);
  const agents = agentFilterFrom(
    values.agents,
    values['exclude-agents'],
    engine.agents.definitions().map((definition) => definition.name),
  );
  const interactive = Boolean(io.stdin.isTTY && io.stderr.isTTY);
  const gate: ApprovalGate = interactive
    ? terminalApprovalGate(io.stdin, io.stderr)
    : denyingGate('nobody could be asked for approval (no terminal); the user can allow it by re-running with --allow write or --allow execute');
  // CLI flags are the user's own choice, like user settings; nothing is read from the workspace.
  const approvalPolicy = AutoApprovalPolicy.fromSettingLayers([{ origin: 'cli', value: { kinds, commands: values['allow-command'] ?? [] } }]);
  // Remembered in CodeWiki's cache, as the extension remembers it per window: a model that writes its calls as
  // text starts the next question in the text protocol, instead of paying for the switch (and a new prompt) again.
  const protocolMemory = new ToolProtocolMemory(join(cliCacheDir(process.env), 'tool-protocols.json'));
  const agent = createAgent(engine, {
    gate,
    approvalPolicy,
    toggles,
    agents,
    caps: maxIterations ? { maxIterations } : undefined,
    toolProtocol,
    useCodeIndex: !noIndex,
    protocolMemory,
  });

  const recorder = new AgentRunRecorder();
  const progress = new AgentProgress(io.stderr, engine.codeIndex, values.verbose ?? false);
  const controller = new AbortController();
  let interrupted = false;
  const answer = new AnswerOutput(io.stdout);
  const onSigint = () => {
    if (interrupted) {
      answer.end(); // what arrived is kept
      process.exit(EXIT.cancelled);
    }
    interrupted = true;
    io.stderr.write('\n■ cancelling…\n');
    controller.abort();
    setTimeout(() => {
      answer.end(); // what arrived is kept
      void writeLog(values.log, recorder).finally(() => process.exit(EXIT.cancelled));
    }, 900).unref();
  };
  process.on('SIGINT', onSigint);
  const onEvent = (event: AgentEvent) => {
    recorder.handle(event);
    if (event.type === 'token' && !event.parentCallId) return answer.text(event.text);
    if (event.type === 'answer-restart' && !event.parentCallId) answer.restart();
    if (event.type === 'warning') answer.breakLine();
    progress.handle(event);
  };
  // A local llama-server keeps prompts it computed; its saved copy of this workspace's prompt comes back first.
  const promptCache = await openPromptCache(models.provider, prefixSlotFile(engine.workspace.root, models.provider.modelName('main'), agent.prefixVariant()));
  if (promptCache && values.verbose) io.stderr.write(describeRestore(promptCache.restored));
  try {
    const result = await agent.run({
      question,
      conversationId: randomUUID(),
      openFile: values.open,
      mentions: mentionsIn(question, engine.agentRegistry.names()),
      signal: controller.signal,
      onEvent,
    });
    answer.end(result.answer);
    await promptCache?.save();
    await writeLog(values.log, recorder);
    if (result.stopReason === 'cancelled') return EXIT.cancelled;
    return result.stopReason === 'failed' ? EXIT.failed : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
    progress.end();
    await engine.codeIndex.dispose();
  }
}

/** `@read_file` in the question forces that tool on an early turn. */
function mentionsIn(question: string, known: string[]): string[] {
  return [...question.matchAll(/(?:^|\s)@([A-Za-z_][\w-]*)/g)].map((match) => match[1]!).filter((name) => known.includes(name));
}

function approvableKind(value: string): ApprovableKind {
  if (value === 'write' || value === 'execute') return value;
  throw new CliError(`--allow ${value}: expected write or execute (read tools always run)`);
}

function positiveInt(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new CliError(`${flag} ${text}: expected a positive whole number`);
  return value;
}

async function writeLog(file: string | undefined, recorder: AgentRunRecorder): Promise<void> {
  if (!file) return;
  await writeFile(file, `${JSON.stringify(recorder.log, null, 2)}\n`);
}

/** The server's saved prompt cache for this workspace and model (llama-server only): restored now, saved by `save()` after the answer. */
async function openPromptCache(provider: ModelProvider, file: string): Promise<{ restored?: SlotTransfer; save(): Promise<unknown> } | undefined> {
  const slots = provider.promptCacheSlots?.('main');
  if (!slots || !(await slots.available())) return undefined;
  return { restored: await slots.restore(file), save: () => slots.save(file) };
}

function describeRestore(restored: SlotTransfer | undefined): string {
  return restored
    ? `· prompt cache: ${restored.tokens.toLocaleString('en-US')} tokens of this workspace's prompt read back from disk (${Math.round(restored.ms)} ms)\n`
    : "· prompt cache: nothing saved yet for this workspace and model; this question's prompt is saved after it\n";
}
