import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { StateManager, type PromptRunMessage, type AssistantMessage } from '../../src/core/history';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { ConversationSession } from '../../src/core/session/conversationSession';
import type { HostToWebview } from '../../src/shared/protocol';
import { tempWorkspace } from '../support/engineBuilders';
import { echoKeyIn401, echoKeyInEveryForm, echoKeyMidStream } from '../support/keyEchoingTurns';
import { OpenAiTestServer } from '../support/openaiServer';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');
/** No `sk-` prefix, so the old key-shaped mask cannot be what hides it. */
const KEY = 'local-Zq8vN3+pXk7/Lw2Rt9=';
const FORMS = [KEY, encodeURIComponent(KEY)];

/** Promise 3 in the extension's path: what the webview is sent and what lands on disk never holds the key. */
describe('ConversationSession with a server that echoes the API key', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let storage: string;
  let history: StateManager;
  let engine: CodewikiEngine;
  let posted: HostToWebview[];

  const models = () =>
    new OpenAiModelProvider({ baseURL: server.url, model: 'main-model', apiKey: KEY, timeoutMs: 5_000, maxRetries: 0 }, { model: 'tool-model' });
  const session = () =>
    new ConversationSession({ history, models, engine: async () => ({ engine }), runLogDir: join(storage, 'runs'), post: (m) => posted.push(m) });

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({ 'src/app.ts': 'export function app() { return 1; }\n', 'src/util.ts': 'export const util = 2;\n' });
    storage = mkdtempSync(join(tmpdir(), 'codewiki-state-'));
    history = (await StateManager.open(storage)).manager;
    engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: models() });
    posted = [];
  });
  afterEach(async () => {
    await history.dispose();
    await server.close();
    ws.cleanup();
    rmSync(storage, { recursive: true, force: true });
  });

  /** Closes the history (so every write is on disk), then checks every file under the storage folder and every posted message. */
  async function assertNoKeyAnywhere(): Promise<void> {
    assert.ok(server.requests.length > 0 && server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`), 'the server received the key it echoes');
    await history.dispose();
    const files = filesUnder(storage);
    assert.ok(
      files.some((f) => f.path.endsWith('.jsonl')),
      'a conversation file was written',
    );
    const sinks = [...files, { path: 'messages posted to the webview', text: JSON.stringify(posted) }];
    for (const { path, text } of sinks) {
      for (const form of FORMS) assert.ok(!text.includes(form), `the key (${form}) is in ${path}:\n${text}`);
    }
  }

  const chatDone = () => (posted.find((m) => m.type === 'chat/done') as Extract<HostToWebview, { type: 'chat/done' }>).message as AssistantMessage;
  const agentDone = () => (posted.find((m) => m.type === 'promptRun/done') as Extract<HostToWebview, { type: 'promptRun/done' }>).run as PromptRunMessage;

  it('a chat answer refused with a 401 that quotes the key says "check the API key"', async () => {
    server.respondWith(echoKeyIn401);
    await session().sendChat('Hello');
    assert.equal(chatDone().status, 'error');
    assert.match(chatDone().error!, /^401 from http:\/\/127\.0\.0\.1:\d+\/v1: check the API key$/);
    await assertNoKeyAnywhere();
  });

  it('a chat answer broken by an error event quoting the key keeps its partial text and a redacted error', async () => {
    server.respondWith(echoKeyMidStream(['Half', ' an answer']));
    await session().sendChat('Hello');
    assert.deepEqual([chatDone().status, chatDone().text], ['error', 'Half an answer']);
    assert.match(chatDone().error!, /Stream aborted: key \[redacted\] was revoked$/);
    await assertNoKeyAnywhere();
  });

  it('an /agent run whose final answer breaks that way: the run, its saved copy and its run log file are clean', async () => {
    server.respondWith(echoKeyMidStream(['It ', 'explains']));
    await session().runPrompt('explain-file', { file: 'src/app.ts' });
    assert.equal(agentDone().status, 'error');
    assert.equal(agentDone().answer, 'It explains');
    assert.match(agentDone().error!, /final answer failed: .*key \[redacted\] was revoked$/);
    assert.ok(agentDone().runLogPath?.startsWith(join(storage, 'runs')), 'the run log is under the checked folder');
    await assertNoKeyAnywhere();
  });

  it('an /agent run whose LLM-tool step is refused with the key in every form: the failed step is clean', async () => {
    server.respondWith(echoKeyInEveryForm(400));
    await session().runPrompt('module-design-doc', { module_path: 'src' });
    const failedStep = posted.find((m) => m.type === 'promptRun/step' && m.step.status === 'failed') as Extract<HostToWebview, { type: 'promptRun/step' }>;
    assert.equal(failedStep.step.id, 'selection');
    assert.match(failedStep.step.error!, /the server rejected the request: Key \[redacted\] rejected \(sent as \?key=\[redacted\]\)/);
    await assertNoKeyAnywhere();
  });
});

function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path, 'utf8') }];
  });
}
