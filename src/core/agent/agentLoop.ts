import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { isAbortError } from '../llm/classifyLlmError';
import { DEFAULT_AGENT_CAPS, DEFAULT_OUTPUT_LIMITS, describeCap, isCapStop, type AgentCaps, type AgentOutputLimits } from './agentCaps';
import type { AgentEvent, AgentEventBody, AgentStopReason } from './agentEvents';
import type { AgentLoopDependencies, AgentRunRequest, AgentRunResult } from './agentLoopTypes';
import { AgentRun, type RunStop } from './agentRun';
import { AgentRunRecorder } from './agentRunLog';
import { capReached, finalAnswer } from './capStop';
import { answerRequest, isEmptyAnswer } from './emptyAnswer';
import { lineOfAnotherEntry, linePastEnd, namesWorkspacePlace } from './answerPlaces';
import { namesAPlace, placeRequest } from './fileAnswerCheck';
import { groundingRequest, unreadFilesNamed } from './groundingCheck';
import { noteCutOff, takeTurn } from './loopTurn';
import { runTurnCalls } from './turnToolCalls';
import { assistantMessage } from './turnMessages';
import type { JsonSchema } from './textProtocol/jsonSchemaTypes';
import { schemasByName } from './textProtocol/textRequests';

export type { AgentLoopDependencies, AgentRunRequest, AgentRunResult } from './agentLoopTypes';
export type { AgentRunState } from './agentRunState';

/**
 * The agent: a ReAct loop over native tool calling (seed 000), done properly. Each turn streams;
 * tool calls are read strictly from the streamed chunks; every call gets a ToolMessage with its id,
 * bad calls included; read calls of a turn run together; write and execute calls wait for
 * approval. Iterations, wall clock, tokens and repeated calls are capped, and a capped run still
 * ends with one last call, without tools, for the best answer so far.
 */
export class AgentLoop {
  private readonly caps: AgentCaps;
  private readonly limits: AgentOutputLimits;
  private readonly schemas: ReadonlyMap<string, JsonSchema>;

  constructor(private readonly deps: AgentLoopDependencies) {
    this.caps = { ...DEFAULT_AGENT_CAPS, ...deps.caps };
    this.limits = { ...DEFAULT_OUTPUT_LIMITS, ...deps.limits };
    this.schemas = schemasByName(deps.tools.definitions);
  }

  /**
   * What, besides the workspace and its files, decides this agent's fixed prompt: the tools it offers and whether
   * it starts from the code index. Two agents with the same variant send the same system prompt and tools for
   * the same workspace, so a saved prompt cache is kept per variant (prefixWarmup.ts).
   */
  prefixVariant(): string {
    return `${this.deps.codeIndex ? 'index' : 'layout'}:${this.deps.tools.names.join(',')}`;
  }

  /**
   * Computes the fixed head of every run (the system prompt and the tools) on the server ahead of the first
   * question, so that a server with a prompt cache (llama-server) has it when the question comes: one call,
   * stopped at its first token, when the whole prompt has been processed. Nothing is emitted or recorded.
   */
  warmPrefix(signal?: AbortSignal): Promise<{ ms: number }> {
    const request: AgentRunRequest = { question: '', conversationId: 'prefix-warm-up', signal };
    return this.warm(request, async (run) => ({ messages: [...(await run.openPrefix()), new HumanMessage('Hello.')] }));
  }

  /**
   * Computes a question's whole first request ahead of time (a draft the user has stopped typing): the same
   * messages and tools `run` would send for the same request (the index's matches included), stopped at the first
   * token. Sent as the question, that request then finds everything in the server's cache and answers at once.
   */
  warmQuestion(request: AgentRunRequest): Promise<{ ms: number }> {
    return this.warm(request, async (run) => {
      await run.open();
      // The first turn forces the first @mention natively (takeTurn): with tools rendered in the prompt, the same request.
      const forced = run.protocol.isText ? undefined : run.mentions[0];
      return { messages: run.state.messages, ...(forced ? { toolChoice: forced } : {}) };
    });
  }

  private async warm(
    request: AgentRunRequest,
    requestOf: (run: AgentRun) => Promise<{ messages: BaseMessage[]; toolChoice?: string }>,
  ): Promise<{ ms: number }> {
    const started = performance.now();
    const run = await AgentRun.start({ deps: this.deps, caps: this.caps, limits: this.limits, schemas: this.schemas, request, emit: () => {} });
    const stop = new AbortController();
    try {
      const { messages, toolChoice } = await requestOf(run);
      const signal = AbortSignal.any([run.signal, stop.signal]);
      const stream = await run.modelForTurn().stream(messages, { signal, ...(toolChoice ? { tool_choice: toolChoice } : {}) });
      const chunks = stream[Symbol.asyncIterator]();
      await chunks.next();
      stop.abort(); // the first token means the whole prompt is in the server's cache: nothing more is needed
      await chunks.return?.();
    } catch (error) {
      if (!stop.signal.aborted || run.userSignal.aborted) throw error;
    } finally {
      run.stopWallClock();
    }
    return { ms: performance.now() - started };
  }

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    const started = performance.now();
    const recorder = new AgentRunRecorder(request.parentCallId);
    const emit = (body: AgentEventBody) => {
      const event: AgentEvent = request.parentCallId ? { ...body, parentCallId: request.parentCallId } : body;
      recorder.handle(event);
      try {
        request.onEvent?.(event);
      } catch {
        // A listener's bug must not end the run; the recorder already has the event.
      }
    };
    const { deps } = this;
    const run = await AgentRun.start({ deps, caps: this.caps, limits: this.limits, schemas: this.schemas, request, emit });
    emit({
      type: 'run-start',
      conversationId: request.conversationId,
      model: deps.modelName,
      tools: run.withTools ? deps.tools.names : [],
      question: request.question,
    });
    for (const note of deps.approvals.notes) emit({ type: 'warning', message: note });
    if (deps.tools.size > 0 && !run.withTools) emit({ type: 'warning', message: `${deps.modelName} cannot be given tools here; answering without them` });

    let stopReason: AgentStopReason;
    let error: string | undefined;
    try {
      await run.open();
      const stop = await iterate(run);
      stopReason = stop.reason;
      if (isCapStop(stopReason)) await finalAnswer(run, describeCap(stopReason, this.caps, stop.repeatedTool));
    } catch (failure) {
      if (run.userSignal.aborted || isAbortError(failure)) {
        stopReason = 'cancelled';
      } else {
        stopReason = 'failed';
        error = run.describe(failure);
        emit({ type: 'warning', message: error });
      }
    } finally {
      run.stopWallClock();
    }

    const { state } = run;
    const durationMs = performance.now() - started;
    emit({ type: 'done', answer: state.answer, stopReason, iterations: state.iterations, tokens: state.tokens, durationMs, error });
    return {
      answer: state.answer,
      stopReason,
      iterations: state.iterations,
      tokens: state.tokens,
      durationMs,
      error,
      messages: state.messages.slice(state.turnStart),
      log: recorder.log,
      usedFallback: run.usedFallback,
    };
  }
}

/** Model turns, each followed by its tool calls, until the model answers without calling or a cap stops the run. */
async function iterate(run: AgentRun): Promise<RunStop> {
  const { state } = run;
  const repeats = new Map<string, number>();
  let toolsUsed = false;
  let checked = false;
  let nudged = false;
  /** The answer checks that sent an answer back already: each does so once per run. */
  const placeChecks = new Set<PlaceCheck>();
  for (;;) {
    const capped = capReached(state, run.caps);
    if (capped) return { reason: capped };
    const iteration = ++state.iterations;
    const taken = await takeTurn(run, iteration);
    if (taken.kind === 'switched') continue;
    if (taken.kind === 'stopped') return taken.stop;

    const { turn, calls, written, asText } = taken;
    if (calls.length === 0) {
      state.messages.push(new AIMessage(turn.text));
      if (turn.finishReason === 'length') noteCutOff(state, iteration);
      if (!nudged && isEmptyAnswer(turn.text)) {
        nudged = true;
        state.emit({ type: 'warning', message: 'the model wrote no answer; CodeWiki asked it once more' });
        state.messages.push(answerRequest(run.protocol.isText));
        restartAnswer(state);
        continue;
      }
      // A where-is question the index found candidates for, answered without naming any place (or, by a small model,
      // with a copy of the candidates), or citing a line past the end of a file or one the matches show for another file:
      // asked once for the file, for each.
      const missing = await whyNoPlace(run, turn.text, placeChecks, toolsUsed);
      if (missing) {
        placeChecks.add(missing.check);
        state.emit({ type: 'warning', message: `${missing.warning}; CodeWiki asked the model which file it is` });
        state.messages.push(placeRequest(missing.note));
        restartAnswer(state);
        continue;
      }
      const unread = run.withTools && !toolsUsed && !checked ? unreadFilesNamed(turn.text, run.layoutText, run.filesShown) : [];
      if (unread.length === 0) return { reason: 'answered' };
      checked = true;
      state.emit({
        type: 'warning',
        message: `the first answer named ${unread.join(', ')} without opening ${unread.length === 1 ? 'it' : 'them'}; CodeWiki asked the model to check with a tool first`,
      });
      state.messages.push(groundingRequest(unread, run.protocol.isText));
      restartAnswer(state);
      continue;
    }
    toolsUsed = true;
    state.messages.push(asText ? new AIMessage(written) : assistantMessage(turn.text, calls));
    if (turn.finishReason === 'length')
      state.emit({
        type: 'warning',
        message: 'the model reached its output token limit in the middle of its tool calls; incomplete calls were returned to it as errors',
      });
    const stop = await runTurnCalls(run, calls, iteration, asText, repeats);
    if (stop) return stop;
  }
}

/** What a where-is answer is checked for: that it names a place of its own, and that the lines it cites exist where it cites them. */
type PlaceCheck = 'place' | 'line';

/**
 * Why a where-is answer names no place of its own, as the warning says it (and, when it helps, a note for the model
 * with the request); undefined when it does, was not asked for one, or the check that fails has asked already. The
 * checks are separate: asked for the file, the 1.5B default answered `gin.go:998`, a line the file does not have.
 */
async function whyNoPlace(
  run: AgentRun,
  answer: string,
  asked: ReadonlySet<PlaceCheck>,
  toolsUsed: boolean,
): Promise<{ check: PlaceCheck; warning: string; note?: string } | undefined> {
  if (run.filesShown.length === 0 || !run.asksWhere) return undefined;
  if (!asked.has('place')) {
    const named = run.deps.workspace ? await namesWorkspacePlace(answer, run.filesShown, run.deps.workspace, run.signal) : namesAPlace(answer);
    if (!named) return { check: 'place', warning: 'the answer named no file' };
    if (run.listCopyWatch?.copied(answer)) return { check: 'place', warning: "the answer copied the index's matches" };
  }
  if (asked.has('line') || !run.deps.workspace) return undefined;
  const shown = { files: run.filesShown, list: run.matchesShown };
  const past = await linePastEnd(answer, shown, run.deps.workspace, run.signal);
  const joined = past || toolsUsed ? undefined : lineOfAnotherEntry(answer, shown);
  if (joined) {
    const place = `${joined.path}:${joined.line}`;
    return {
      check: 'line',
      warning: `the answer cited ${place}, a line the matches show in ${joined.shownIn}`,
      note: `The matches show line ${joined.line} in ${joined.shownIn}, not in ${joined.path}.`,
    };
  }
  if (!past) return undefined;
  const place = `${past.path}:${past.line}`;
  // Told only that the line is not there, the 1.5B default wrote `gin.go:998` again; told where the matches show it, it
  // names that file.
  const where = past.shownIn ? ` The matches show line ${past.line} in ${past.shownIn}.` : '';
  return {
    check: 'line',
    warning: `the answer cited ${place}, and ${past.path} has ${past.lines} lines`,
    note: `${past.path} has ${past.lines} lines: there is no ${place}.${where}`,
  };
}

/** The answer is sent back: what the model writes next replaces it (the user still sees what streamed, marked as sent back). */
function restartAnswer(state: AgentRun['state']): void {
  state.answer = '';
  state.emit({ type: 'answer-restart' });
}
