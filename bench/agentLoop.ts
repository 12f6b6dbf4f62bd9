import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { AgentLoop } from '../src/core/agent/agentLoop';
import { AgentToolSet } from '../src/core/agent/agentToolSet';
import { denyingGate, ToolApprovals } from '../src/core/agent/approvalGate';
import type { AgentChatModel, TurnCallOptions } from '../src/core/agent/streamTurn';
import { createChatModel } from '../src/core/llm/createChatModel';
import { codewikiTool } from '../src/core/tools/codewikiTool';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { type BenchRow, fmt, median } from './benchTable';

const TOOLS = 30;
const TOOL_TURNS = 11; // + 1 answering turn = the default cap of 12 iterations
const RUNS = 40;

/**
 * The agent loop's own cost per iteration with 30 tools bound: message bookkeeping, strict
 * argument parsing, validation, dispatch, events and the run log, with the model's time taken
 * out (a stub hands over prebuilt chunks, and the time spent inside it is subtracted). A second
 * figure adds the real ChatOpenAI request building and SSE parsing over an in-process transport.
 */
export async function benchAgentLoop(): Promise<BenchRow[]> {
  const registry = new ToolRegistry();
  for (let i = 0; i < TOOLS; i++) {
    registry.register(
      codewikiTool(async ({ value }) => `ok ${value}`, {
        name: `tool_${i}`,
        description: `Bench tool ${i}: returns its value`,
        schema: z.object({ value: z.number().describe('Any number'), note: z.string().optional().describe('Ignored') }),
      }),
      { kind: 'read', category: 'custom', displayName: `Tool ${i}`, timeoutMs: 5_000, agentCallable: true },
    );
  }
  let schemaBuilds = 0;
  const jsonSchema = registry.jsonSchema.bind(registry);
  registry.jsonSchema = (name: string) => {
    schemaBuilds++;
    return jsonSchema(name);
  };
  const tools = AgentToolSet.create(registry);
  const buildsAtCreation = schemaBuilds;
  const approvals = new ToolApprovals(denyingGate('bench'));

  const stub = new StubModel(tools.definitions);
  const loop = new AgentLoop({ model: stub, modelName: 'bench-model', tools, approvals });
  const perIteration: number[] = [];
  for (let run = 0; run < RUNS + 3; run++) {
    stub.script = scriptedTurns(run);
    stub.modelMs = 0;
    const started = performance.now();
    const result = await loop.run({ question: 'bench', conversationId: `bench-${run}` });
    const elapsed = performance.now() - started;
    if (result.stopReason !== 'answered' || result.iterations !== TOOL_TURNS + 1)
      throw new Error(`bench run ended ${result.stopReason} after ${result.iterations} iterations`);
    if (run >= 3) perIteration.push((elapsed - stub.modelMs) / result.iterations); // runs 0-2 warm the JIT
  }
  const loopMs = median(perIteration);
  const schemasOnce = schemaBuilds === buildsAtCreation && stub.bindCalls === RUNS + 3 && stub.sameDefinitions;

  const fullStackMs = await benchWithChatOpenAI(tools, approvals);
  return [
    {
      figure: `Agent loop overhead per iteration (${TOOLS} tools bound, ${TOOL_TURNS + 1} iterations, model time excluded, median of ${RUNS})`,
      result: `${fmt(loopMs * 1000)} µs`,
      goal: '≤ 1 ms',
      met: loopMs <= 1,
    },
    {
      figure: 'Agent tool schemas built once per tool set (not per turn or run)',
      result: `${buildsAtCreation} schema builds for ${TOOLS} tools; ${schemaBuilds - buildsAtCreation} more over ${RUNS + 3} runs × ${TOOL_TURNS + 1} turns; bindTools got the same definitions every run: ${stub.sameDefinitions ? 'yes' : 'no'}`,
      goal: '0 rebuilds',
      met: schemasOnce,
    },
    {
      figure: 'Agent iteration through the real ChatOpenAI client (request building + SSE parsing, in-process transport, no network)',
      result: `${fmt(fullStackMs * 1000)} µs`,
      goal: 'report',
    },
  ];
}

/** Prebuilt turns: a tool call to a different tool each turn, then an answer; three chunks each, as a server streams them. */
function scriptedTurns(run: number): AIMessageChunk[][] {
  const usage = { input_tokens: 500, output_tokens: 20, total_tokens: 520 };
  const turns: AIMessageChunk[][] = [];
  for (let turn = 0; turn < TOOL_TURNS; turn++) {
    turns.push([
      new AIMessageChunk({ content: '' }),
      new AIMessageChunk({
        content: '',
        tool_call_chunks: [{ type: 'tool_call_chunk', index: 0, id: `call_${run}_${turn}`, name: `tool_${turn % TOOLS}`, args: `{"value": ${turn}}` }],
      }),
      new AIMessageChunk({ content: '', response_metadata: { finish_reason: 'tool_calls' }, usage_metadata: usage }),
    ]);
  }
  turns.push([
    new AIMessageChunk({ content: 'The ' }),
    new AIMessageChunk({ content: 'answer.' }),
    new AIMessageChunk({ content: '', response_metadata: { finish_reason: 'stop' }, usage_metadata: usage }),
  ]);
  return turns;
}

/** A chat model that costs (almost) nothing: it hands over the next prebuilt turn and times itself. */
class StubModel implements AgentChatModel {
  script: AIMessageChunk[][] = [];
  modelMs = 0;
  bindCalls = 0;
  sameDefinitions = true;

  constructor(private readonly expected: readonly object[]) {}

  bindTools(tools: readonly object[]): AgentChatModel {
    this.bindCalls++;
    if (tools !== this.expected) this.sameDefinitions = false;
    return this;
  }

  async stream(_messages: BaseMessage[], _options?: TurnCallOptions): Promise<AsyncIterable<AIMessageChunk>> {
    const started = performance.now();
    const chunks = this.script.shift() ?? [];
    this.modelMs += performance.now() - started;
    return {
      [Symbol.asyncIterator]: () => {
        let at = 0;
        return {
          next: async () => {
            const t = performance.now();
            const result = at < chunks.length ? { value: chunks[at++]!, done: false as const } : { value: undefined, done: true as const };
            this.modelMs += performance.now() - t;
            return result;
          },
        };
      },
    };
  }
}

/** Per-iteration time of the same loop with the real ChatOpenAI, its fetch answered in-process with SSE. */
async function benchWithChatOpenAI(tools: AgentToolSet, approvals: ToolApprovals): Promise<number> {
  let turn = 0;
  const fetch = async () => {
    const call = turn++ % (TOOL_TURNS + 1);
    const base = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'bench-model' };
    const delta = (d: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] });
    const events =
      call < TOOL_TURNS
        ? [
            delta({ role: 'assistant', content: '' }),
            delta({ tool_calls: [{ index: 0, id: `c${turn}`, type: 'function', function: { name: `tool_${call}`, arguments: `{"value": ${call}}` } }] }),
            delta({}, 'tool_calls'),
          ]
        : [delta({ role: 'assistant', content: 'The answer.' }), delta({}, 'stop')];
    events.push({ ...base, choices: [], usage: { prompt_tokens: 500, completion_tokens: 20, total_tokens: 520 } } as never);
    const body = `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  const model = createChatModel({ baseURL: 'http://127.0.0.1:9/v1', model: 'bench-model', maxRetries: 0 }, { fetch });
  const loop = new AgentLoop({ model: model as unknown as AgentChatModel, modelName: 'bench-model', tools, approvals });
  const samples: number[] = [];
  for (let run = 0; run < 13; run++) {
    turn = 0;
    const started = performance.now();
    const result = await loop.run({ question: 'bench', conversationId: `full-${run}` });
    if (result.stopReason !== 'answered') throw new Error(`full-stack bench run ended ${result.stopReason}: ${result.error ?? ''}`);
    if (run >= 3) samples.push((performance.now() - started) / result.iterations);
  }
  return median(samples);
}
