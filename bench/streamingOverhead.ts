import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { compileActionPrompt } from '../src/core/actionPrompt/compileActionPrompt';
import { CustomAgentExecutor } from '../src/core/engine/customAgentExecutor';
import { OpenAiModelProvider } from '../src/core/llm/openAiModelProvider';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { startLocalModel, type LocalModelServer } from '../test/realModel/localModelServer';
import { type BenchRow, fmt, median } from './benchTable';

const QUESTION = 'Explain, in about 200 words, how a hash map handles collisions.';
const MAX_TOKENS = 256;
const ROUNDS = 5;

interface StreamFigures {
  firstTokenMs: number;
  tokensPerSecond: number;
  cpuMicrosPerToken: number;
}

/**
 * Streaming overhead against llama.cpp's real server: the same question answered by a direct client (fetch and a
 * minimal SSE parser, the least a client can do) and by the path `codewiki run` takes (CustomAgentExecutor, the
 * request built and sent by ChatCompletionsModel, our fetch layer and SSE decoder, events written out as the CLI
 * does). Two stock ChatOpenAI paths with none of our layers show what the OpenAI SDK's decoding and LangChain's
 * chunk classes cost a token: its public `.stream()`, and its `_streamResponseChunks` (the same without the
 * per-chunk merge and callbacks). The direct client and codewiki alternate round by round, so both see the same
 * server state, and the stock paths then alternate the same way; medians are compared as ratios. CPU time is this
 * process's, from request to last token.
 */
export async function benchStreamingOverhead(): Promise<BenchRow[]> {
  let server: LocalModelServer;
  try {
    server = await startLocalModel();
  } catch (error) {
    return [{ figure: 'streaming overhead vs a direct client', result: `skipped: ${(error as Error).message.split('\n')[0]}`, goal: 'CPU/token ≤ 1.2×' }];
  }
  try {
    const direct: StreamFigures[] = [];
    const codewiki: StreamFigures[] = [];
    const stock: StreamFigures[] = [];
    const chunks: StreamFigures[] = [];
    await directClient(server); // warm-up: the prompt cache and every code path
    await throughCodewiki(server);
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await directClient(server));
      codewiki.push(await throughCodewiki(server));
    }
    // The stock paths allocate the most; measured after the compared pair, their garbage is never collected on its time.
    await stockChatOpenAI(server);
    await stockChunks(server);
    for (let round = 0; round < ROUNDS; round++) {
      stock.push(await stockChatOpenAI(server));
      chunks.push(await stockChunks(server));
    }
    const m = (list: StreamFigures[], key: keyof StreamFigures) => median(list.map((f) => f[key]));
    const cpuRatio = m(codewiki, 'cpuMicrosPerToken') / m(direct, 'cpuMicrosPerToken');
    const stockRatio = m(stock, 'cpuMicrosPerToken') / m(direct, 'cpuMicrosPerToken');
    const chunksRatio = m(chunks, 'cpuMicrosPerToken') / m(direct, 'cpuMicrosPerToken');
    const startMs = await cliStartToRequestMs();
    return [
      {
        figure: `first token, codewiki ÷ direct (${server.model}, median of ${ROUNDS})`,
        result: `${fmt(m(codewiki, 'firstTokenMs') / m(direct, 'firstTokenMs'), 2)}× (${fmt(m(codewiki, 'firstTokenMs'), 0)} vs ${fmt(m(direct, 'firstTokenMs'), 0)} ms)`,
        goal: 'report',
      },
      {
        figure: 'tokens/s, codewiki ÷ direct',
        result: `${fmt(m(codewiki, 'tokensPerSecond') / m(direct, 'tokensPerSecond'), 2)}× (${fmt(m(codewiki, 'tokensPerSecond'))} vs ${fmt(m(direct, 'tokensPerSecond'))} tok/s)`,
        goal: 'report',
      },
      {
        figure: 'client CPU per token, codewiki ÷ direct',
        result: `${fmt(cpuRatio, 2)}× (${fmt(m(codewiki, 'cpuMicrosPerToken'), 0)} vs ${fmt(m(direct, 'cpuMicrosPerToken'), 0)} µs)`,
        goal: '≤ 1.2×',
        met: cpuRatio <= 1.2,
      },
      {
        figure: 'client CPU per token, stock ChatOpenAI .stream() ÷ direct (what a LangChain user gets)',
        result: `${fmt(stockRatio, 2)}× (${fmt(m(stock, 'cpuMicrosPerToken'), 0)} vs ${fmt(m(direct, 'cpuMicrosPerToken'), 0)} µs)`,
        goal: 'report',
      },
      {
        figure: 'client CPU per token, stock ChatOpenAI _streamResponseChunks ÷ direct (the SDK decoding and LangChain chunks, no .stream() merge)',
        result: `${fmt(chunksRatio, 2)}× (${fmt(m(chunks, 'cpuMicrosPerToken'), 0)} vs ${fmt(m(direct, 'cpuMicrosPerToken'), 0)} µs)`,
        goal: 'report',
      },
      { figure: 'CLI: process start to the request on the wire', result: `${fmt(startMs, 0)} ms`, goal: 'report' },
    ];
  } finally {
    await server.stop();
  }
}

async function directClient(server: LocalModelServer): Promise<StreamFigures> {
  return timed(async (shown) => {
    let tokens = 0;
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: server.model,
        messages: [{ role: 'user', content: QUESTION }],
        stream: true,
        max_tokens: MAX_TOKENS,
        temperature: 0,
        stream_options: { include_usage: true },
      }),
    });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const bytes of response.body!) {
      buffered += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        const event = JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }>; usage?: { completion_tokens: number } };
        if (event.choices?.[0]?.delta?.content) shown();
        if (event.usage) tokens = event.usage.completion_tokens;
      }
    }
    return tokens;
  });
}

async function throughCodewiki(server: LocalModelServer): Promise<StreamFigures> {
  const registry = new ToolRegistry();
  const yaml = `title: bench\nllm_prompt_template:\n  human: "${QUESTION}"\n`;
  const prompt = compileActionPrompt(yaml, { file: 'bench.yaml', id: 'bench', source: 'file', tools: registry });
  const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: MAX_TOKENS });
  const executor = new CustomAgentExecutor({ registry, models });
  await models.contextSize('main'); // asked once per endpoint in a real session, not per answer
  return timed(async (shown) => {
    const result = await executor.run(prompt, {}, { onEvent: (event) => event.type === 'llm-token' && shown() });
    return result.log.final?.tokens.output ?? 0;
  });
}

function stockModel(server: LocalModelServer): ChatOpenAI {
  return new ChatOpenAI({
    configuration: { baseURL: server.baseUrl },
    apiKey: 'none',
    model: server.model,
    temperature: 0,
    maxTokens: MAX_TOKENS,
    streamUsage: true,
  });
}

/** What any LangChain user writes: the stock ChatOpenAI and its public `.stream()`, with none of CodeWiki's layers. */
async function stockChatOpenAI(server: LocalModelServer): Promise<StreamFigures> {
  const model = stockModel(server);
  return timed(async (shown) => {
    let tokens = 0;
    for await (const chunk of await model.stream(QUESTION)) {
      if (chunk.content) shown();
      tokens = chunk.usage_metadata?.output_tokens ?? tokens;
    }
    return tokens;
  });
}

/** The stock model's `_streamResponseChunks`: its request, the SDK's SSE decoding and LangChain's chunk conversion, without `.stream()`'s merge and callbacks. */
async function stockChunks(server: LocalModelServer): Promise<StreamFigures> {
  const model = stockModel(server);
  return timed(async (shown) => {
    let tokens = 0;
    for await (const { message } of model._streamResponseChunks([new HumanMessage(QUESTION)], {} as ChatOpenAI['ParsedCallOptions'])) {
      if (message.content) shown();
      tokens = (message as { usage_metadata?: { output_tokens: number } }).usage_metadata?.output_tokens ?? tokens;
    }
    return tokens;
  });
}

/**
 * Runs one answer and measures it: `read` streams it, calls `shown` for each piece of text it shows, and returns
 * the output tokens. CPU time is this process's, from the request to the last token.
 */
async function timed(read: (shown: () => void) => Promise<number>): Promise<StreamFigures> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let firstAt = 0;
  const tokens = await read(() => {
    firstAt ||= performance.now();
    process.stdout.write(''); // what a client that prints does, without filling the bench's output
  });
  return figures(started, firstAt, performance.now(), tokens, cpu);
}

function figures(started: number, firstAt: number, endedAt: number, tokens: number, cpu: NodeJS.CpuUsage): StreamFigures {
  const used = process.cpuUsage(cpu);
  return {
    firstTokenMs: firstAt - started,
    tokensPerSecond: (tokens - 1) / ((endedAt - firstAt) / 1000),
    cpuMicrosPerToken: (used.user + used.system) / Math.max(tokens, 1),
  };
}

/** Wall time from spawning `node dist/cli.js run` to its request arriving at a server (here a stub that answers at once). */
async function cliStartToRequestMs(): Promise<number> {
  const timings: number[] = [];
  for (let i = 0; i < 3; i++) {
    let arrived = 0;
    const stub = createServer((req, res) => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      arrived ||= Date.now();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
      );
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
    const spawnedAt = Date.now();
    const child = spawn(
      process.execPath,
      [
        join(__dirname, '..', 'dist', 'cli.js'),
        'run',
        'explain-file',
        '--workspace',
        join(__dirname, '..', 'example-workspace'),
        '--input',
        'file=src/index.ts',
        '--base-url',
        url,
        '--model',
        'm',
      ],
      { stdio: 'ignore' },
    );
    await new Promise((r) => child.on('close', r));
    stub.close();
    if (arrived) timings.push(arrived - spawnedAt);
  }
  return median(timings);
}
