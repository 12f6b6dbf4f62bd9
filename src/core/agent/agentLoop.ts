import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { isAbortError } from '../llm/classifyLlmError';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../llm/usage';
import type { Workspace } from '../workspace/workspace';
import { DEFAULT_AGENT_CAPS, DEFAULT_OUTPUT_LIMITS, describeCap, isCapStop, type AgentCaps, type AgentOutputLimits } from './agentCaps';
import type { AgentEvent, AgentEventBody, AgentEventListener, AgentStopReason } from './agentEvents';
import { AgentRunRecorder, type AgentRunLog } from './agentRunLog';
import type { AgentToolSet } from './agentToolSet';
import type { ToolApprovals } from './approvalGate';
import type { ModelAdapterSettings } from './modelAdapters';
import { agentGuidance } from './agentGuidance';
import { planThenAnswer } from './planThenAnswer';
import { streamTurn, type AgentChatModel, type StreamedTurn, type TurnCallOptions } from './streamTurn';
import { buildSystemPrompt, workspaceLayout, workspaceName } from './systemPrompt';
import { findTextToolCalls, withoutSpans } from './textToolCalls';
import { assistantMessage, callKey, estimateTurn, rejectsTools } from './turnMessages';
import { createRunState, type AgentRunState } from './agentRunState';
import { parseToolCalls, type ParsedToolCall } from './toolCallParsing';
import { partialResultsOf, runToolCalls, type ToolCallResult } from './toolCallRunner';
import type { JsonSchema } from './textProtocol/jsonSchemaTypes';
import type { ToolProtocolSetting } from './textProtocol/toolProtocol';
import { ToolProtocolChoice } from './textProtocol/toolProtocolChoice';
import type { ToolProtocolMemory } from './textProtocol/toolProtocolMemory';
import { ToolRequestStream } from './textProtocol/toolRequestStream';
import { nativeHistoryAsText } from './textProtocol/toolResultsMessage';
import { requestCalls, schemasByName, textResultsMessage } from './textProtocol/textRequests';

export interface AgentLoopDependencies {
  /** The main model; `bindTools` is called once per run with the tool set's prebuilt definitions. */
  model: AgentChatModel;
  modelName: string;
  /** The fallback's planning call (e.g. the tool model); the main model when absent. */
  planningModel?: AgentChatModel;
  tools: AgentToolSet;
  approvals: ToolApprovals;
  /** For the top-level layout in the system prompt. */
  workspace?: Workspace;
  caps?: Partial<AgentCaps>;
  limits?: Partial<AgentOutputLimits>;
  adapter?: ModelAdapterSettings;
  /** A model failure in plain words (ModelProvider.describeError); the error's message otherwise. */
  describeModelError?(error: unknown): string;
  /** Extra `configurable` entries handed to tools. */
  toolConfigurable?: Record<string, unknown>;
  /** `codewiki.agent.toolProtocol` / `--tool-protocol`: native calls, the text protocol, or `auto` (default). */
  toolProtocol?: ToolProtocolSetting;
  /** Where `auto` remembers a switch to text, per model and endpoint; without it only this run knows. */
  protocolMemory?: ToolProtocolMemory;
  /** The model's endpoint (base URL), the other half of the memory's key. */
  endpoint?: string;
}

/**
 * One user turn. Nothing here can grant approvals: those come only from the ToolApprovals the
 * loop was built with (security promise #8), so a request assembled from a webview message, an
 * action prompt or an agent definition carries only what to ask and which tools to force.
 */
export interface AgentRunRequest {
  question: string;
  conversationId: string;
  /** Earlier turns of the conversation, oldest first (e.g. the `messages` of earlier results). */
  history?: BaseMessage[];
  /** Workspace-relative path of the file open in the editor. */
  openFile?: string;
  /** `@tool` mentions: each is forced (tool_choice) on one of the first turns, in order. */
  mentions?: string[];
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /** Set on a sub-agent's run: the id of the tool call that started it, copied onto every event. */
  parentCallId?: string;
}

export type { AgentRunState } from './agentRunState';

export interface AgentRunResult {
  answer: string;
  stopReason: AgentStopReason;
  /** Model turns, the final no-tools call included. */
  iterations: number;
  tokens: TokenUsage;
  durationMs: number;
  error?: string;
  /** This turn's messages (question, tool calls, tool results, answer), to pass as `history` next time. */
  messages: BaseMessage[];
  log: AgentRunLog;
  usedFallback: boolean;
}

const WALL_CLOCK = Symbol('wall-clock');

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
    const canBindTools = typeof deps.model.bindTools === 'function';
    const protocol = await ToolProtocolChoice.start({
      setting: deps.toolProtocol ?? 'auto',
      canBindTools,
      memory: deps.protocolMemory,
      modelName: deps.modelName,
      endpoint: deps.endpoint,
      emit,
    });
    const wallClock = new AbortController();
    const timer = setTimeout(() => wallClock.abort(WALL_CLOCK), this.caps.wallClockMs);
    const userSignal = request.signal ?? new AbortController().signal;
    const signal = AbortSignal.any([userSignal, wallClock.signal]);

    // The text protocol needs nothing from the client: the tools travel in the system prompt.
    const withTools = deps.tools.size > 0 && (canBindTools || protocol.isText);
    const state = createRunState(emit, {
      tools: deps.tools,
      approvals: deps.approvals,
      conversationId: request.conversationId,
      emit,
      signal,
      configurable: deps.toolConfigurable,
      parentCallId: request.parentCallId,
      ...this.limits,
    });

    emit({ type: 'run-start', conversationId: request.conversationId, model: deps.modelName, tools: withTools ? deps.tools.names : [], question: request.question });
    for (const note of deps.approvals.notes) emit({ type: 'warning', message: note });
    if (deps.tools.size > 0 && !withTools) emit({ type: 'warning', message: `${deps.modelName} cannot be given tools here; answering without them` });

    let stopReason: AgentStopReason = 'answered';
    let error: string | undefined;
    let usedFallback = false;
    let repeatedTool: string | undefined;
    try {
      const layout = withTools && deps.workspace ? await workspaceLayout(deps.workspace, signal) : undefined;
      const systemFor = () =>
        buildSystemPrompt({
          workspaceName: deps.workspace ? workspaceName(deps.workspace) : 'workspace',
          layout,
          openFile: request.openFile,
          tools: withTools ? deps.tools.names : [],
          guidance: agentGuidance(deps.modelName, deps.adapter, protocol.isText ? 'text' : 'native', deps.tools.definitions),
        });
      const system = systemFor();
      const history = request.history ?? [];
      state.messages.push(new SystemMessage(system), ...(protocol.isText ? nativeHistoryAsText(history) : history));
      state.turnStart = state.messages.length;
      const mentions = withTools ? this.forcedTools(request.mentions ?? [], emit) : [];
      // tool_choice cannot force a tool in text; the question asks for it instead.
      const textMentions = protocol.isText && mentions.length ? `\n\n(Start by calling ${mentions.splice(0).join(', then ')}.)` : '';
      state.messages.push(new HumanMessage(request.question + textMentions));

      let bound: AgentChatModel | undefined;
      const modelForTurn = () => (protocol.isText || !withTools ? deps.model : (bound ??= deps.model.bindTools!(deps.tools.definitions) as AgentChatModel));
      const useText = async (reason: string) => {
        await protocol.switchToText(reason);
        state.messages = nativeHistoryAsText(state.messages);
        state.messages[0] = new SystemMessage(systemFor());
      };
      const repeats = new Map<string, number>();

      for (;;) {
        if (state.iterations >= this.caps.maxIterations) {
          stopReason = 'max-iterations';
          break;
        }
        if (state.tokens.total >= this.caps.tokenBudget) {
          stopReason = 'token-budget';
          break;
        }
        const iteration = ++state.iterations;
        const textTurn = protocol.isText;
        const forced = textTurn ? undefined : mentions.shift();
        const requests = withTools && textTurn ? new ToolRequestStream() : undefined;
        let turn: StreamedTurn;
        try {
          turn = await this.turn(state, modelForTurn(), iteration, { signal, ...(forced ? { tool_choice: forced } : {}) }, withTools, forced, requests);
        } catch (failure) {
          if (userSignal.aborted) throw failure;
          if (wallClock.signal.aborted) {
            stopReason = 'wall-clock';
            break;
          }
          if (withTools && !textTurn && protocol.canSwitch && rejectsTools(failure)) {
            await useText(`the server rejected the tool definitions (${this.describe(failure)}); CodeWiki now describes the tools in the prompt (text tool protocol)`);
            continue;
          }
          if (withTools && !textTurn && iteration === 1 && rejectsTools(failure)) {
            usedFallback = true;
            const reason = `the server rejected the tool definitions (${this.describe(failure)})`;
            emit({ type: 'fallback', reason });
            try {
              await planThenAnswer(state, {
                planner: deps.planningModel ?? deps.model,
                answerer: deps.model,
                tools: deps.tools,
                system,
                question: request.question,
                mentions: request.mentions ?? [],
                signal,
              });
            } catch (fallbackFailure) {
              if (userSignal.aborted || !wallClock.signal.aborted) throw fallbackFailure;
              stopReason = 'wall-clock';
            }
            break;
          }
          throw failure;
        }

        let calls = !withTools ? [] : requests ? requestCalls(requests.blocks, this.schemas, iteration) : parseToolCalls(turn.message, iteration);
        // What the model wrote, replayed as is under the text protocol (its calls are part of it).
        const written = turn.text;
        let asText = textTurn;
        if (calls.length === 0 && withTools) {
          const nearMiss = findTextToolCalls(turn.text, new Set(deps.tools.names), iteration, this.schemas);
          if (nearMiss.calls.length) {
            calls = nearMiss.calls;
            turn = { ...turn, text: withoutSpans(turn.text, nearMiss.spans) };
            state.answer = withoutSpans(state.answer, nearMiss.spans);
            const what = calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`;
            if (protocol.canSwitch) {
              await useText(`${deps.modelName} wrote ${what} as text instead of calling natively; CodeWiki checked and ran it, and uses the text tool protocol from now on`);
              asText = true;
            } else if (!textTurn) {
              emit({ type: 'warning', message: `${deps.modelName} wrote ${what} as text instead of calling natively; CodeWiki checked and ran it as a tool call` });
            }
          }
        }
        if (calls.length === 0) {
          state.messages.push(new AIMessage(turn.text));
          if (turn.finishReason === 'length') this.noteCutOff(state, iteration);
          break;
        }
        state.messages.push(asText ? new AIMessage(written) : assistantMessage(turn.text, calls));
        if (turn.finishReason === 'length') emit({ type: 'warning', message: 'the model reached its output token limit in the middle of its tool calls; incomplete calls were returned to it as errors' });

        const repeated = calls.find((call) => (repeats.get(callKey(call)) ?? 0) >= this.caps.maxIdenticalCalls);
        if (repeated) {
          repeatedTool = repeated.name;
          stopReason = 'repeated-call';
          this.skipCalls(state, calls, iteration, `not run: ${repeated.name} was asked for again with the same arguments, so the run is stopping`, asText);
          break;
        }
        for (const call of calls) repeats.set(callKey(call), (repeats.get(callKey(call)) ?? 0) + 1);

        try {
          this.recordResults(state, calls, await runToolCalls(calls, iteration, state.toolContext), asText);
        } catch (failure) {
          this.recordResults(state, calls, partialResultsOf(failure), asText);
          if (userSignal.aborted || !wallClock.signal.aborted) throw failure;
          stopReason = 'wall-clock';
          break;
        }
        if (wallClock.signal.aborted) {
          stopReason = 'wall-clock';
          break;
        }
      }

      if (isCapStop(stopReason)) await this.finalAnswer(state, describeCap(stopReason, this.caps, repeatedTool), userSignal, protocol.isText);
    } catch (failure) {
      if (userSignal.aborted || isAbortError(failure)) {
        stopReason = 'cancelled';
      } else {
        stopReason = 'failed';
        error = this.describe(failure);
        emit({ type: 'warning', message: error });
      }
    } finally {
      clearTimeout(timer);
    }

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
      usedFallback,
    };
  }

  /** Streams one turn and accounts for it (events, tokens). */
  /** Under the text protocol, `requests` takes the request blocks out of the streamed answer (they show as tool calls). */
  private async turn(state: AgentRunState, model: AgentChatModel, iteration: number, options: TurnCallOptions, withTools: boolean, forced?: string, requests?: ToolRequestStream): Promise<StreamedTurn> {
    const started = performance.now();
    state.emit({ type: 'turn-start', iteration, toolChoice: forced, withTools });
    let turn: StreamedTurn;
    try {
      turn = await streamTurn(model, state.messages, options, {
        onText: (text) => state.say(requests ? requests.push(text) : text, iteration),
        onReasoning: (text) => state.emit({ type: 'reasoning', text, iteration }),
      });
    } finally {
      if (requests) state.say(requests.end(), iteration);
    }
    const tokens = turn.usage ?? estimateTurn(state.messages, turn);
    state.tokens = addUsage(state.tokens, tokens);
    const toolCalls = requests ? requests.blocks.length : (turn.message?.tool_call_chunks?.length ?? 0);
    state.emit({ type: 'turn-end', iteration, finishReason: turn.finishReason, toolCalls, tokens, durationMs: performance.now() - started });
    return turn;
  }

  /** The last call of a capped run: no tools, the best answer from what was gathered. */
  private async finalAnswer(state: AgentRunState, why: string, userSignal: AbortSignal, asText: boolean): Promise<void> {
    state.emit({ type: 'warning', message: `stopped early: ${why}` });
    state.messages.push(
      new HumanMessage(
        `The run is stopping because ${why}. Do not call any tools. Answer the original question now, as well as you can from the information gathered so far, and say what is still unknown.`,
      ),
    );
    const iteration = ++state.iterations;
    try {
      // Under the text protocol a block written anyway is still kept out of the answer (and not run).
      const turn = await this.turn(state, this.deps.model, iteration, { signal: userSignal }, false, undefined, asText ? new ToolRequestStream() : undefined);
      state.messages.push(new AIMessage(turn.text));
      if (turn.finishReason === 'length') this.noteCutOff(state, iteration);
    } catch (failure) {
      if (userSignal.aborted) throw failure;
      state.emit({ type: 'warning', message: `the final answer could not be produced: ${this.describe(failure)}` });
    }
    state.say(`\n\n_(Cut short: ${why}. This is the best answer from what was found so far.)_`, iteration);
  }

  private noteCutOff(state: AgentRunState, iteration: number): void {
    state.emit({ type: 'warning', message: 'the answer was cut off: the server stopped at its output token limit (finish_reason "length")' });
    state.say('\n\n_(The answer was cut off: the model reached its output token limit.)_', iteration);
  }

  /** Every tool call needs a tool message before the next request; these say why they did not run. */
  private skipCalls(state: AgentRunState, calls: ParsedToolCall[], iteration: number, why: string, asText: boolean): void {
    for (const call of calls) {
      state.emit({ type: 'tool-call-start', id: call.id, iteration, tool: call.name, displayName: call.name, argsSummary: '', args: call.args ?? call.rawArgs });
      state.emit({ type: 'tool-call-end', id: call.id, iteration, tool: call.name, status: 'skipped', durationMs: 0, tokens: { ...ZERO_USAGE }, output: why });
      if (!asText) state.messages.push(new ToolMessage({ content: why, tool_call_id: call.id, name: call.name, status: 'error' }));
    }
    if (asText) state.messages.push(textResultsMessage(calls, new Map(), why));
  }

  /** One tool message per call, in call order; a call without a result (the run was stopped) says so. */
  private recordResults(state: AgentRunState, calls: ParsedToolCall[], results: ToolCallResult[], asText: boolean): void {
    const byId = new Map(results.map((result) => [result.call, result]));
    for (const result of results) state.tokens = addUsage(state.tokens, result.tokens);
    // Under the text protocol the results go back as one user message in a fixed format.
    if (asText) return void state.messages.push(textResultsMessage(calls, byId, 'not finished: the run was stopped before this call completed'));
    for (const call of calls) {
      const result = byId.get(call);
      state.messages.push(
        new ToolMessage({
          content: result?.content ?? 'not finished: the run was stopped before this call completed',
          tool_call_id: call.id,
          name: call.name,
          status: result?.status === 'ok' ? 'success' : 'error',
        }),
      );
    }
  }

  /** Known mentioned tools, in order; unknown or disabled ones are reported and dropped. */
  private forcedTools(mentions: string[], emit: (event: AgentEventBody) => void): string[] {
    const forced: string[] = [];
    for (const mention of mentions) {
      const name = mention.replace(/^@/, '');
      const found = this.deps.tools.lookup(name);
      if (found.found) forced.push(name);
      else emit({ type: 'warning', message: `@${name} was not used: ${found.error}` });
    }
    return forced;
  }

  private describe(error: unknown): string {
    if (this.deps.describeModelError) return this.deps.describeModelError(error);
    return (error as Error)?.message ?? String(error);
  }
}
