import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { StateManager, type PromptRunMessage, type AssistantMessage } from '../../src/core/history';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { ConversationSession } from '../../src/core/session/conversationSession';
import type { HostToWebview } from '../../src/shared/protocol';
import { modelsFor, tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

describe('ConversationSession: every chat and /agent run is saved', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let storage: string;
  let history: StateManager;
  let engine: CodewikiEngine;
  let posted: HostToWebview[];

  const session = (overrides: Partial<ConstructorParameters<typeof ConversationSession>[0]> = {}) =>
    new ConversationSession({
      history,
      models: () => modelsFor(server.url),
      engine: async () => ({ engine }),
      runLogDir: join(storage, 'runs'),
      post: (m) => posted.push(m),
      ...overrides,
    });
  const reopen = async () => {
    await history.dispose();
    history = (await StateManager.open(storage)).manager;
    return history;
  };

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({ 'src/app.ts': 'export function app() { return "APP_BODY"; }\n' });
    storage = mkdtempSync(join(tmpdir(), 'codewiki-state-'));
    history = (await StateManager.open(storage)).manager;
    engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: modelsFor(server.url) });
    posted = [];
  });
  afterEach(async () => {
    await history.dispose();
    await server.close();
    ws.cleanup();
    rmSync(storage, { recursive: true, force: true });
  });

  it('a chat turn streams and both messages survive a restart', async () => {
    server.enqueue({ chunks: ['Hello', ' there'] });
    const s = session();
    await s.sendChat('Hi');
    assert.deepEqual(
      posted.filter((m) => m.type === 'chat/chunk').map((m) => (m as { text: string }).text),
      ['Hello', ' there'],
    );
    assert.equal(server.lastRequest().body?.messages?.at(-1)?.content, 'Hi');
    const [conversation] = (await reopen()).listConversations();
    assert.equal(conversation.title, 'Hi');
    const restored = history.getConversation(conversation.id)!;
    assert.deepEqual(
      restored.messages.map((m) => [m.kind, m.kind === 'assistant' ? m.text : m.kind === 'user' ? m.text : '', m.kind === 'assistant' ? m.status : '']),
      [
        ['user', 'Hi', ''],
        ['assistant', 'Hello there', 'done'],
      ],
    );
    const done = (posted.find((m) => m.type === 'chat/done') as { message: AssistantMessage }).message;
    assert.ok(typeof done.durationMs === 'number', 'the view is told how long the answer took');
    assert.equal((restored.messages[1] as AssistantMessage).durationMs, done.durationMs, 'and history keeps it');
    assert.equal(history.getOpenConversationId(), conversation.id);
  });

  it('an /agent run alone is in history with its inputs, steps, answer and run log', async () => {
    server.enqueue({ chunks: ['It ', 'explains.'] });
    await session().runPrompt('explain-file', { file: 'src/app.ts', audience: 'reviewer' });
    const started = posted.find((m) => m.type === 'promptRun/started') as Extract<HostToWebview, { type: 'promptRun/started' }>;
    assert.deepEqual(started.run.steps, [{ id: 'content', title: 'Read the file', tool: 'read_file', status: 'pending' }]);
    assert.ok(posted.some((m) => m.type === 'promptRun/step' && m.step.status === 'running'));
    assert.match(server.lastRequest().promptText, /APP_BODY/);

    const [summary] = (await reopen()).listConversations();
    assert.equal(summary.title, 'Explain a file');
    const run = history.getConversation(summary.id)!.messages[0] as PromptRunMessage;
    assert.equal(run.kind, 'prompt-run');
    assert.equal(run.status, 'done');
    assert.deepEqual(run.inputs, { file: 'src/app.ts', audience: 'reviewer', question: '' });
    assert.equal(run.answer, 'It explains.');
    assert.equal(run.steps[0].status, 'success');
    assert.match(run.steps[0].outputPreview!, /APP_BODY/);
    assert.equal(JSON.parse(readFileSync(run.runLogPath!, 'utf8')).status, 'success');
    assert.equal(history.search('reviewer').length, 1, 'inputs are searchable');
  });

  it('Stop keeps the partial answer of an /agent run, saved as stopped', async () => {
    server.respondWith(() => ({ chunks: ['Partial', ' rest', ' more'], chunkDelayMs: 300 }));
    const s = session();
    const running = s.runPrompt('explain-file', { file: 'src/app.ts' });
    while (!posted.some((m) => m.type === 'promptRun/chunk')) await new Promise((r) => setTimeout(r, 10));
    s.stop();
    await running;
    const run = (await reopen()).getConversation(history.listConversations()[0].id)!.messages[0] as PromptRunMessage;
    assert.equal(run.status, 'stopped');
    assert.match(run.answer, /^Partial/);
  });

  it('Stop during a chat answer closes the request and saves the partial answer as stopped', async () => {
    server.respondWith(() => ({ chunks: ['Half', ' of', ' it'], chunkDelayMs: 300 }));
    const s = session();
    const running = s.sendChat('Long question');
    while (!posted.some((m) => m.type === 'chat/chunk')) await new Promise((r) => setTimeout(r, 10));
    s.stop();
    await running;
    await server.waitForClose(0);
    const done = posted.find((m) => m.type === 'chat/done') as { message: AssistantMessage };
    assert.equal(done.message.status, 'stopped');
    const saved = (await reopen()).getConversation(history.listConversations()[0].id)!.messages[1] as AssistantMessage;
    assert.deepEqual([saved.status, saved.text], ['stopped', 'Half']);
  });

  it('a view re-created mid-answer gets the text streamed so far, not the last saved copy', async () => {
    server.respondWith(() => ({ chunks: ['First', ' second', ' third'], chunkDelayMs: 250 }));
    const s = session();
    const running = s.sendChat('Question');
    while (!posted.some((m) => m.type === 'chat/chunk')) await new Promise((r) => setTimeout(r, 10));
    const snapshot = s.current()!.messages[1] as AssistantMessage;
    assert.deepEqual([snapshot.status, snapshot.text], ['streaming', 'First']);
    await running;
    assert.equal((s.current()!.messages[1] as AssistantMessage).text, 'First second third');
  });

  it('a failed answer is saved with plain words and can be retried in place', async () => {
    server.enqueue({ status: 401, body: { error: { message: 'bad key sk-leak' } } }, { text: 'Recovered' });
    const s = session();
    await s.sendChat('Question');
    const failed = (posted.find((m) => m.type === 'chat/done') as { message: AssistantMessage }).message;
    assert.equal(failed.status, 'error');
    assert.match(failed.error!, /^401 from http:\/\/127\.0\.0\.1:\d+\/v1: check the API key$/);
    await s.retry(failed.id);
    const messages = history.getConversation(history.listConversations()[0].id)!.messages;
    assert.deepEqual(
      messages.map((m) => [m.kind, m.id === failed.id, m.kind === 'assistant' ? m.status : '']),
      [
        ['user', false, ''],
        ['assistant', true, 'done'],
      ],
    );
    assert.doesNotMatch(readFileSync(join(storage, 'conversations', `${history.listConversations()[0].id}.jsonl`), 'utf8'), /sk-leak/);
  });

  it('without a configured model the answer is an error the user can act on, and the question is kept', async () => {
    await session({ models: () => NO_MODELS }).sendChat('Anyone there?');
    const done = posted.find((m) => m.type === 'chat/done') as { message: AssistantMessage };
    assert.match(done.message.error!, /no main model is configured: set codewiki.model/);
    assert.equal(history.getConversation(history.listConversations()[0].id)!.messages[0].kind, 'user');
  });

  it('refuses /agent when action prompts are unavailable (Restricted Mode), without saving a run', async () => {
    await session({ engine: async () => ({ unavailable: 'Restricted Mode: trust this workspace to run action prompts.' }) }).runPrompt('explain-file', {
      file: 'src/app.ts',
    });
    assert.deepEqual(posted, [{ type: 'error/show', message: 'Restricted Mode: trust this workspace to run action prompts.' }]);
    assert.equal(history.listConversations().length, 0);
    assert.equal(server.requests.length, 0);
  });

  it('bad /agent inputs are refused before anything runs', async () => {
    await session().runPrompt('explain-file', { file: '../outside.ts' });
    assert.equal(posted[0].type, 'error/show');
    assert.match((posted[0] as { message: string }).message, /outside the workspace/);
    assert.equal(existsSync(join(storage, 'runs')), false);
  });
});
