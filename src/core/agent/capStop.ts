import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { AgentCaps, CapStopReason } from './agentCaps';
import type { AgentRun } from './agentRun';
import type { AgentRunState } from './agentRunState';
import { noteCutOff, streamModelTurn } from './loopTurn';
import { ToolRequestStream } from './textProtocol/toolRequestStream';

/** The caps checked before each turn; the wall clock and repeated calls stop a run as they happen. */
export function capReached(state: AgentRunState, caps: AgentCaps): CapStopReason | undefined {
  if (state.iterations >= caps.maxIterations) return 'max-iterations';
  if (state.tokens.total >= caps.tokenBudget) return 'token-budget';
  return undefined;
}

/** The last call of a capped run: no tools, the best answer from what was gathered. */
export async function finalAnswer(run: AgentRun, why: string): Promise<void> {
  const { state, userSignal } = run;
  state.emit({ type: 'warning', message: `stopped early: ${why}` });
  state.messages.push(
    new HumanMessage(
      `The run is stopping because ${why}. Do not call any tools. Answer the original question now, as well as you can from the information gathered so far, and say what is still unknown.`,
    ),
  );
  const iteration = ++state.iterations;
  try {
    // Under the text protocol a block written anyway is still kept out of the answer (and not run).
    const requests = run.protocol.isText ? new ToolRequestStream() : undefined;
    const turn = await streamModelTurn(state, { model: run.deps.model, iteration, options: { signal: userSignal }, withTools: false, requests });
    state.messages.push(new AIMessage(turn.text));
    if (turn.finishReason === 'length') noteCutOff(state, iteration);
  } catch (failure) {
    if (userSignal.aborted) throw failure;
    state.emit({ type: 'warning', message: `the final answer could not be produced: ${run.describe(failure)}` });
  }
  state.say(`\n\n_(Cut short: ${why}. This is the best answer from what was found so far.)_`, iteration);
}
