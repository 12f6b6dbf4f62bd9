import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createCodewikiEngine } from '../src/core/codewikiEngine';
import { StateManager } from '../src/core/history';
import { OpenAiModelProvider } from '../src/core/llm/openAiModelProvider';
import { ConversationSession } from '../src/core/session/conversationSession';
import type { HostToWebview } from '../src/shared/protocol';
import { pinnedModels, startLocalModel, type LocalModelServer } from '../test/realModel/localModelServer';
import { RecordingProxy, type Exchange } from '../test/realModel/recordingProxy';
import { loadEvalRepos } from './eval/evalRepos';
import { type BenchRow, fmt } from './benchTable';
import { agentTurnAnswer } from '../src/core/history/agentTurnAnswer';

const ROOT = resolve(__dirname, '..');

type Draft = 'none' | 'computed' | 'one second';
const MODES: readonly Draft[] = ['none', 'computed', 'one second'];

interface Target {
  name: string;
  /** The folder the session opens: a copy of the example workspace, or an evaluation repository as it is. */
  dir: string;
  /** Questions with their right files, asked once per mode, each mode on a freshly started server. */
  questions: Array<{ question: string; files: string[] }>;
}

const EXAMPLE_QUESTIONS = [
  { question: 'Where is the word frequency computed? Name the file.', files: ['src/frequency.ts'] },
  { question: 'Which file defines the list of stop words?', files: ['src/stopWords.ts'] },
  { question: 'Where is the default reading speed in words per minute defined?', files: ['src/readingTime.ts'] },
  { question: 'Which file splits text into sentences?', files: ['src/tokenize.ts'] },
  { question: 'Which function returns the most common words?', files: ['src/frequency.ts'] },
  { question: 'Where is the two-line report for a text formatted?', files: ['src/format.ts'] },
];
/** Evaluation repositories used too when their clones are there (npm run eval:agent says how to get them): longer paths, longer lists. */
const EVAL_REPOS = ['psf/requests', 'google/gson'];
const QUESTIONS_PER_TARGET = 9;

interface Answered {
  /** From Enter to the first token of the question's first model call, as it left the server. */
  firstTokenMs?: number;
  /** That call's prompt tokens the server computed, and those it took from its cache. */
  evaluated?: number;
  cached?: number;
  /** From Enter (the question sent) to the first words of the answer in the chat (later when the answer opens like a tool call and is held). */
  firstWordsMs?: number;
  totalMs: number;
  right: boolean;
  /** A draft that should have been computed was not (refused or failed): the row says so. */
  notComputed?: boolean;
  answer: string;
}

/**
 * Drafts computed ahead (codewiki.agent.prefillWhileTyping) on the default local model, as the chat meets them: the
 * extension's own session (ConversationSession) with the workspace's code index, against llama-server started by
 * serve.sh, the agent's fixed prompt warmed first as the extension warms it. The same questions three times, each
 * time on a freshly started server (a question asked before would find its own prompt in the cache): sent with no
 * draft, sent after its draft was computed (the user paused long enough), and sent one second into its draft. For
 * each: the first token of its first model call as it left the server, the first words shown in the chat, the end,
 * and the prompt tokens the server computed; each question in a new conversation, and its answer must name a right
 * file. On the example workspace, and on evaluation repositories whose clones are there.
 */
export async function benchDraftPrefill(): Promise<BenchRow[]> {
  const model = pinnedModels().defaultModel;
  const example = mkdtempSync(join(tmpdir(), 'codewiki-draft-bench-'));
  cpSync(join(ROOT, 'example-workspace'), example, { recursive: true });
  const targets: Target[] = [
    { name: 'example workspace', dir: example, questions: EXAMPLE_QUESTIONS },
    ...loadEvalRepos()
      .filter((repo) => repo.dir && EVAL_REPOS.includes(repo.repo))
      .map((repo) => ({ name: repo.repo, dir: repo.dir!, questions: repo.questions.slice(0, QUESTIONS_PER_TARGET) })),
  ];
  const results = new Map<string, Answered[]>();
  let server: LocalModelServer | undefined;
  try {
    for (const mode of MODES) {
      server = await startLocalModel({ model, args: ['--n-predict', '256'] });
      // Through a recording proxy on loopback: what the server did with each question's first call (its timings) and when its first token left it.
      const proxy = new RecordingProxy(server.origin);
      const models = new OpenAiModelProvider({ baseURL: await proxy.start(), model: server.model, timeoutMs: 600_000 });
      try {
        for (const target of targets) results.set(`${target.name}\n${mode}`, await askAll(target, models, proxy, mode));
      } finally {
        await proxy.close();
        await server.stop();
      }
    }
    return targets.flatMap((target) => MODES.map((mode) => row(target.name, mode, results.get(`${target.name}\n${mode}`) ?? [])));
  } catch (error) {
    await server?.stop();
    return [{ figure: 'drafts computed ahead on the local model', result: `skipped: ${(error as Error).message.split('\n')[0]}`, goal: '—' }];
  } finally {
    rmSync(example, { recursive: true, force: true });
  }
}

async function askAll(target: Target, models: OpenAiModelProvider, proxy: RecordingProxy, mode: Draft): Promise<Answered[]> {
  const storage = mkdtempSync(join(tmpdir(), 'codewiki-draft-bench-state-'));
  const engine = await createCodewikiEngine({ workspaceRoot: target.dir, builtinPromptsDir: join(ROOT, 'action-prompts'), models });
  const history = (await StateManager.open(storage)).manager;
  try {
    const listeners = new Set<(message: HostToWebview) => void>();
    const session = new ConversationSession({
      history,
      models: () => models,
      engine: async () => ({ engine }),
      runLogDir: join(storage, 'runs'),
      post: (message) => listeners.forEach((listener) => listener(message)),
    });
    await session.warmPromptCache();
    const answers: Answered[] = [];
    for (const { question, files } of target.questions) {
      await session.newConversation();
      const sentBefore = proxy.chatExchanges().length;
      const drafting = mode === 'none' ? undefined : session.warmDraft(question).catch(() => false);
      let settled = false;
      void drafting?.finally(() => (settled = true));
      // One second from when the draft's request reached the server (its index search comes first), then Enter.
      if (mode === 'one second') {
        await until(() => settled || proxy.chatExchanges().length > sentBefore);
        await delay(1_000);
      }
      const computed = mode === 'computed' ? await drafting : undefined;
      const answered = await timedAnswer(session, listeners, proxy, question, files).finally(() => drafting);
      await drafting; // done, or stopped by the question
      answers.push({ ...answered, notComputed: computed === false });
      process.stderr.write(`  ${target.name} [${mode}] ${question} → ${JSON.stringify(answered.answer.slice(0, 160))}\n`);
    }
    return answers;
  } finally {
    await engine.codeIndex.dispose();
    await history.dispose();
    rmSync(storage, { recursive: true, force: true });
  }
}

async function timedAnswer(
  session: ConversationSession,
  listeners: Set<(message: HostToWebview) => void>,
  proxy: RecordingProxy,
  question: string,
  files: string[],
): Promise<Answered> {
  const sent = performance.now();
  let firstWordsMs: number | undefined;
  let answer = '';
  const listener = (message: HostToWebview) => {
    if (message.type === 'agentTurn/chunk' && message.text.trim() && firstWordsMs === undefined) firstWordsMs = performance.now() - sent;
    if (message.type === 'agentTurn/done') answer = agentTurnAnswer(message.turn).answer;
  };
  // The question's first model call: the first chat completion sent after Enter, and when its first token passed.
  let first: Exchange | undefined;
  let firstTokenMs: number | undefined;
  const onRequest = (exchange: Exchange) => {
    if (!first && exchange.path === '/v1/chat/completions') first = exchange;
  };
  const onChunk = (exchange: Exchange) => {
    if (exchange === first && firstTokenMs === undefined && /"(?:content|reasoning_content)":"[^"]|"tool_calls"/.test(exchange.response)) {
      firstTokenMs = performance.now() - sent;
    }
  };
  listeners.add(listener);
  proxy.on('request', onRequest).on('chunk', onChunk);
  try {
    await session.sendAgent(question);
  } finally {
    listeners.delete(listener);
    proxy.off('request', onRequest).off('chunk', onChunk);
  }
  const timings = first && serverTimings(first.response);
  return { firstTokenMs, firstWordsMs, totalMs: performance.now() - sent, right: files.some((file) => answer.includes(file)), answer, ...timings };
}

/** llama-server's account of a streamed call (the `timings` of its last event): prompt tokens computed and taken from the cache. */
function serverTimings(sse: string): { evaluated: number; cached: number } | undefined {
  const match = /"timings":\{[^}]*\}/.exec(sse.slice(sse.lastIndexOf('"timings"') - 1));
  if (!match) return undefined;
  const timings = JSON.parse(`{${match[0]}}`) as { timings: { prompt_n?: number; cache_n?: number } };
  return { evaluated: timings.timings.prompt_n ?? 0, cached: timings.timings.cache_n ?? 0 };
}

const FIGURES: Record<Draft, { figure: string; goal: string }> = {
  none: { figure: 'no draft', goal: 'first token ≤ 5 s (issue 21)' },
  computed: { figure: 'after its draft was computed (a pause before Enter)', goal: 'first token ≤ 5 s' },
  'one second': { figure: 'Enter one second into its draft', goal: 'first token ≤ 5 s' },
};

function row(target: string, draft: Draft, answers: Answered[]): BenchRow {
  const seconds = (values: Array<number | undefined>) => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length ? `${fmt(median(known) / 1000)} s (max ${fmt(Math.max(...known) / 1000)} s)` : '—';
  };
  const computed = answers.map((a) => a.evaluated).filter((v): v is number => v !== undefined);
  const right = answers.filter((a) => a.right).length;
  const refused = answers.filter((a) => a.notComputed).length;
  return {
    figure: `${target}, where-is question in the chat, ${FIGURES[draft].figure}`,
    goal: FIGURES[draft].goal,
    result:
      `first token ${seconds(answers.map((a) => a.firstTokenMs))}, first words ${seconds(answers.map((a) => a.firstWordsMs))}, ` +
      `done ${seconds(answers.map((a) => a.totalMs))}; prompt tokens computed ${computed.length ? median(computed) : '?'}; ${right}/${answers.length} right` +
      (refused ? `; ${refused} draft(s) not computed` : ''),
    met: answers.length > 0 && answers.every((a) => a.firstTokenMs !== undefined && a.firstTokenMs <= 5_000 && !a.notComputed),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await delay(20);
}
