import { addUsage, type TokenUsage } from '../llm/usage';
import { usageFromTimings } from '../llm/serverTimings';
import type { AgentRun, RunStop } from './agentRun';
import type { AgentRunState } from './agentRunState';
import { planThenAnswer } from './planThenAnswer';
import { streamTurn, type AgentChatModel, type AnswerCut, type StreamedTurn, type TurnCallOptions } from './streamTurn';
import { findTextToolCalls, withoutSpans, type TextToolCalls } from './textToolCalls';
import { parseToolCalls, type ParsedToolCall } from './toolCallParsing';
import { estimateTurn, rejectsTools } from './turnMessages';
import { requestCalls } from './textProtocol/textRequests';
import { ToolRequestStream } from './textProtocol/toolRequestStream';
import { REQUEST_END } from './textProtocol/toolProtocol';
import { TextCallHold } from './textCallHold';
import { isEmptyAnswer, withoutEchoedWrapper } from './emptyAnswer';

/** A streamed turn and its calls; none means it answered. */
export interface TurnCalls {
  kind: 'calls';
  turn: StreamedTurn;
  calls: ParsedToolCall[];
  /** What the model wrote, replayed as is under the text protocol (its calls are part of it). */
  written: string;
  /** The calls and their results go back in the text protocol's format. */
  asText: boolean;
}

/** What one iteration's model turn came to. */
export type TakenTurn =
  | TurnCalls
  /** The server refused the tools and the run now describes them in the prompt: the iteration is taken again. */
  | { kind: 'switched' }
  | { kind: 'stopped'; stop: RunStop };

/** One streamed model turn, as `streamModelTurn` takes it. */
export interface ModelTurn {
  model: AgentChatModel;
  iteration: number;
  options: TurnCallOptions;
  withTools: boolean;
  /** The tool forced with tool_choice. */
  forced?: string;
  /** Under the text protocol, takes the request blocks out of the streamed answer (they show as tool calls). */
  requests?: ToolRequestStream;
  /** In a native turn, holds back calls the model writes as text until they are judged (see readNearMiss). */
  hold?: TextCallHold;
  /** Ends the answer early, or holds back its end for now (streamTurn.ts). */
  cutAnswer?: (answer: string) => AnswerCut | undefined;
}

/** One iteration: the turn streamed (a mentioned tool forced natively, request blocks collected in text) and its calls read. */
export async function takeTurn(run: AgentRun, iteration: number): Promise<TakenTurn> {
  const textTurn = run.protocol.isText;
  const forced = textTurn ? undefined : run.mentions.shift();
  const requests = run.withTools && textTurn ? new ToolRequestStream() : undefined;
  const hold = run.withTools && !textTurn ? textCallHold(run, iteration) : undefined;
  let turn: StreamedTurn;
  try {
    const options = { signal: run.signal, ...(forced ? { tool_choice: forced } : {}) };
    // A small model's where-is answer ends once it has named its place, or a copy of the matches at its second entry.
    const cutAnswer = run.answerCut;
    turn = await streamModelTurn(run.state, { model: run.modelForTurn(), iteration, options, withTools: run.withTools, forced, requests, hold, cutAnswer });
  } catch (failure) {
    return await afterFailedTurn(run, failure, iteration, textTurn);
  }
  const calls = !run.withTools ? [] : requests ? requestCalls(requests.blocks, run.schemas, iteration) : parseToolCalls(turn.message, iteration);
  const nearMiss = calls.length === 0 && run.withTools ? await readNearMiss(run, turn, iteration, textTurn) : undefined;
  const written = textTurn && calls.length ? throughLastRequest(turn.text) : turn.text;
  return { kind: 'calls', turn, calls, written, asText: textTurn, ...nearMiss };
}

/**
 * The turn as the model will read it back: up to its last request block. Small models go on to write the
 * tool's result themselves; replayed, that invention stands beside the real result and is believed over it.
 */
function throughLastRequest(text: string): string {
  const end = text.lastIndexOf(REQUEST_END);
  return end < 0 ? text : text.slice(0, end + REQUEST_END.length);
}

/** Streams one turn and accounts for it (events, tokens). */
export async function streamModelTurn(
  state: AgentRunState,
  { model, iteration, options, withTools, forced, requests, hold, cutAnswer }: ModelTurn,
): Promise<StreamedTurn> {
  const started = performance.now();
  state.emit({ type: 'turn-start', iteration, toolChoice: forced, withTools });
  const filter = requests ?? hold;
  let turn: StreamedTurn;
  try {
    turn = await streamTurn(model, state.messages, options, {
      onText: (text) => state.say(filter ? filter.push(text) : text, iteration),
      onReasoning: (text) => state.emit({ type: 'reasoning', text, iteration }),
      cutAnswer,
    });
  } finally {
    if (filter) state.say(filter.end(), iteration);
  }
  // A turn ended early has no usage: llama-server's timings so far say what it computed and took from its cache
  // (and generated up to the last event read); other servers' are estimated.
  const tokens = withCachedCount(turn.usage ?? (turn.timings ? usageFromTimings(turn.timings) : estimateTurn(state.messages, turn)), turn);
  state.tokens = addUsage(state.tokens, tokens);
  const toolCalls = requests ? requests.blocks.length : (turn.message?.tool_call_chunks?.length ?? 0);
  state.emit({
    type: 'turn-end',
    iteration,
    finishReason: turn.finishReason,
    toolCalls,
    tokens,
    durationMs: performance.now() - started,
    firstTokenMs: turn.firstTokenMs,
    server: turn.timings,
  });
  return turn;
}

/** llama-server's timings say exactly how much of the prompt came from its cache; they win over usage details. */
function withCachedCount(tokens: TokenUsage, turn: StreamedTurn): TokenUsage {
  return turn.timings ? { ...tokens, cached: turn.timings.cachedTokens } : tokens;
}

export function noteCutOff(state: AgentRunState, iteration: number): void {
  state.emit({ type: 'warning', message: 'the answer was cut off: the server stopped at its output token limit (finish_reason "length")' });
  state.say('\n\n_(The answer was cut off: the model reached its output token limit.)_', iteration);
}

/**
 * A turn that failed. Past the wall clock the run is capped. A server that refuses the tools gets
 * them in the prompt from now on (`auto`) or, on the first turn, the plan-then-answer fallback.
 */
async function afterFailedTurn(run: AgentRun, failure: unknown, iteration: number, textTurn: boolean): Promise<TakenTurn> {
  if (run.userSignal.aborted) throw failure;
  if (run.wallClock.aborted) return { kind: 'stopped', stop: { reason: 'wall-clock' } };
  const refused = run.withTools && !textTurn && rejectsTools(failure);
  if (refused && run.protocol.canSwitch) {
    await run.useText(
      `the server rejected the tool definitions (${run.describe(failure)}); CodeWiki now describes the tools in the prompt (text tool protocol)`,
    );
    return { kind: 'switched' };
  }
  if (refused && iteration === 1) return { kind: 'stopped', stop: await fallBackToPlanning(run, failure) };
  throw failure;
}

async function fallBackToPlanning(run: AgentRun, failure: unknown): Promise<RunStop> {
  const { deps, request } = run;
  run.usedFallback = true;
  run.state.emit({ type: 'fallback', reason: `the server rejected the tool definitions (${run.describe(failure)})` });
  try {
    await planThenAnswer(run.state, {
      planner: deps.planningModel ?? deps.model,
      answerer: deps.model,
      tools: deps.tools,
      system: run.system,
      question: request.question,
      mentions: request.mentions ?? [],
      signal: run.signal,
    });
  } catch (fallbackFailure) {
    return run.wallClockStop(fallbackFailure);
  }
  return { reason: 'answered' };
}

/** A native turn's hold: readNearMiss's judgement, made per stretch while the answer streams. */
function textCallHold(run: AgentRun, iteration: number): TextCallHold {
  return new TextCallHold(run.deps.tools.names, (stretch) => {
    const found = nearMissIn(run, stretch, iteration);
    if (found.calls.length) return withoutSpans(stretch, found.spans);
    // An empty wrapper is no answer: kept from the reader; the loop asks for an answer (emptyAnswer.ts).
    return isEmptyAnswer(stretch) ? '' : withoutEchoedWrapper(stretch);
  });
}

/** The calls written as text in `text` that this run takes: the hold and readNearMiss must agree on them. */
function nearMissIn(run: AgentRun, text: string, iteration: number): TextToolCalls {
  // Request blocks and XML elements count only under `auto`: `native` promises structured calls alone (they stay text).
  return findTextToolCalls(text, new Set(run.deps.tools.names), iteration, run.protocol.canSwitch ? run.schemas : undefined);
}

/**
 * Calls written as text instead of the active protocol's way: taken out of the answer and run like
 * any call (validated, approved). `auto` switches to the text protocol; otherwise a native turn warns.
 */
async function readNearMiss(
  run: AgentRun,
  turn: StreamedTurn,
  iteration: number,
  textTurn: boolean,
): Promise<Pick<TurnCalls, 'turn' | 'calls' | 'asText'> | undefined> {
  const { deps, state } = run;
  const nearMiss = nearMissIn(run, turn.text, iteration);
  if (!nearMiss.calls.length) return undefined;
  const { calls } = nearMiss;
  const cleaned = { ...turn, text: withoutSpans(turn.text, nearMiss.spans) };
  // Usually the hold already kept the calls out of the answer as it streamed; then the answer stays as shown.
  if (nearMiss.spans.some((span) => state.answer.includes(span))) state.answer = withoutSpans(state.answer, nearMiss.spans);
  const what = calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`;
  if (run.protocol.canSwitch) {
    await run.useText(
      `${deps.modelName} wrote ${what} as text instead of calling natively; CodeWiki checked and ran it, and uses the text tool protocol from now on`,
    );
    return { turn: cleaned, calls, asText: true };
  }
  if (!textTurn)
    state.emit({ type: 'warning', message: `${deps.modelName} wrote ${what} as text instead of calling natively; CodeWiki checked and ran it as a tool call` });
  return { turn: cleaned, calls, asText: textTurn };
}
