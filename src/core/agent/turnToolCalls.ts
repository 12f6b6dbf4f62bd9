import { ToolMessage } from '@langchain/core/messages';
import { addUsage, ZERO_USAGE } from '../llm/usage';
import type { AgentRun, RunStop } from './agentRun';
import type { AgentRunState } from './agentRunState';
import type { ParsedToolCall } from './toolCallParsing';
import { partialResultsOf, runToolCalls, type ToolCallResult } from './toolCallRunner';
import { callKey } from './turnMessages';
import { textResultsMessage } from './textProtocol/textRequests';

const NOT_FINISHED = 'not finished: the run was stopped before this call completed';

/**
 * Runs one turn's tool calls and answers each of them in the history. Returns why the run stops, if
 * it does: a call asked for again past the cap (nothing of the turn runs), or the wall clock.
 * `repeats` counts the run's calls by tool and arguments.
 */
export async function runTurnCalls(
  run: AgentRun,
  calls: ParsedToolCall[],
  iteration: number,
  asText: boolean,
  repeats: Map<string, number>,
): Promise<RunStop | undefined> {
  const { state } = run;
  const repeated = calls.find((call) => (repeats.get(callKey(call)) ?? 0) >= run.caps.maxIdenticalCalls);
  if (repeated) {
    skipCalls(state, calls, iteration, `not run: ${repeated.name} was asked for again with the same arguments, so the run is stopping`, asText);
    return { reason: 'repeated-call', repeatedTool: repeated.name };
  }
  for (const call of calls) repeats.set(callKey(call), (repeats.get(callKey(call)) ?? 0) + 1);

  try {
    recordResults(state, calls, await runToolCalls(calls, iteration, state.toolContext), asText);
  } catch (failure) {
    recordResults(state, calls, partialResultsOf(failure), asText);
    return run.wallClockStop(failure);
  }
  return run.wallClock.aborted ? { reason: 'wall-clock' } : undefined;
}

/** Every tool call needs a tool message before the next request; these say why they did not run. */
function skipCalls(state: AgentRunState, calls: ParsedToolCall[], iteration: number, why: string, asText: boolean): void {
  for (const call of calls) {
    state.emit({ type: 'tool-call-start', id: call.id, iteration, tool: call.name, displayName: call.name, argsSummary: '', args: call.args ?? call.rawArgs });
    state.emit({ type: 'tool-call-end', id: call.id, iteration, tool: call.name, status: 'skipped', durationMs: 0, tokens: { ...ZERO_USAGE }, output: why });
    if (!asText) state.messages.push(new ToolMessage({ content: why, tool_call_id: call.id, name: call.name, status: 'error' }));
  }
  if (asText) state.messages.push(textResultsMessage(calls, new Map(), why));
}

/** One tool message per call, in call order; a call without a result (the run was stopped) says so. */
function recordResults(state: AgentRunState, calls: ParsedToolCall[], results: ToolCallResult[], asText: boolean): void {
  const byId = new Map(results.map((result) => [result.call, result]));
  for (const result of results) state.tokens = addUsage(state.tokens, result.tokens);
  // Under the text protocol the results go back as one user message in a fixed format.
  if (asText) return void state.messages.push(textResultsMessage(calls, byId, NOT_FINISHED));
  for (const call of calls) {
    const result = byId.get(call);
    state.messages.push(
      new ToolMessage({
        content: result?.content ?? NOT_FINISHED,
        tool_call_id: call.id,
        name: call.name,
        status: result?.status === 'ok' ? 'success' : 'error',
      }),
    );
  }
}
