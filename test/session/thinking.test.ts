import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { StateManager, type PromptRunMessage, type AssistantMessage } from '../../src/core/history';
import { ConversationSession } from '../../src/core/session/conversationSession';
import { REASONING_MAX_CHARS } from '../../src/core/session/reasoningCap';
import type { HostToWebview } from '../../src/shared/protocol';
import { modelsFor, tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

/** Chat mode and /agent answers split a reasoning model's thinking from its answer: on the wire to the view, on disk, and in the next request. */
describe('ConversationSession: thinking is kept apart from the answer', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let storage: string;
  let history: StateManager;
  let engine: CodewikiEngine;
  let posted: HostToWebview[];

  const session = () =>
    new ConversationSession({
      history,
      models: () => modelsFor(server.url),
      engine: async () => ({ engine }),
      runLogDir: join(storage, 'runs'),
      post: (m) => posted.push(m),
    });
  const sent = <T extends HostToWebview['type']>(type: T) => posted.filter((m): m is Extract<HostToWebview, { type: T }> => m.type === type);
  const reopened = async () => {
    await history.dispose();
    history = (await StateManager.open(storage)).manager;
    const [summary] = history.listConversations();
    return history.getConversation(summary.id)!;
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

  it('chat: a <think> block streams as chat/reasoning, is saved apart, and is not sent back as history', async () => {
    server.enqueue({ chunks: ['<think>The user greets; src/secret', '-plan.ts is irrelevant.</th', 'ink>', 'Hello', ' there'] });
    server.enqueue({ text: 'Second.' });
    const s = session();
    await s.sendChat('Hi');
    assert.deepEqual(
      sent('chat/chunk').map((m) => m.text),
      ['Hello', ' there'],
    );
    assert.equal(
      sent('chat/reasoning')
        .map((m) => m.text)
        .join(''),
      'The user greets; src/secret-plan.ts is irrelevant.',
    );
    const done = sent('chat/done')[0].message;
    assert.equal(done.text, 'Hello there');

    await s.sendChat('And?');
    const replayed = server.lastRequest().body!.messages!.map((m) => String(m.content));
    assert.ok(replayed.includes('Hello there'), replayed.join(' | '));
    assert.ok(!replayed.some((c) => c.includes('secret-plan')), 'thinking is not history the model pays for again');

    const restored = (await reopened()).messages[1] as AssistantMessage;
    assert.equal(restored.text, 'Hello there');
    assert.equal(restored.reasoning, 'The user greets; src/secret-plan.ts is irrelevant.');
  });

  it('chat: reasoning_content is thinking too, and history keeps at most the cap of it', async () => {
    const long = 'x'.repeat(REASONING_MAX_CHARS);
    server.enqueue({ reasoningChunks: ['Thinking… ', long], chunks: ['Answer.'] });
    await session().sendChat('Q');
    const restored = (await reopened()).messages[1] as AssistantMessage;
    assert.equal(restored.text, 'Answer.');
    assert.equal(restored.reasoning!.length, REASONING_MAX_CHARS);
    assert.ok(restored.reasoning!.startsWith('Thinking… x'));
    assert.equal(
      sent('chat/reasoning')
        .map((m) => m.text)
        .join('').length,
      REASONING_MAX_CHARS,
      'the view shows what history keeps',
    );
  });

  it("/agent: the final answer's thinking streams as agent/reasoning and is saved on the run, not in its answer", async () => {
    server.enqueue({ chunks: ['<think>plan the explanation</think>', 'It ', 'explains.'] });
    await session().runPrompt('explain-file', { file: 'src/app.ts', audience: 'reviewer' });
    assert.deepEqual(
      sent('promptRun/chunk').map((m) => m.text),
      ['It ', 'explains.'],
    );
    assert.equal(
      sent('promptRun/reasoning')
        .map((m) => m.text)
        .join(''),
      'plan the explanation',
    );
    const run = (await reopened()).messages[0] as PromptRunMessage;
    assert.equal(run.answer, 'It explains.');
    assert.equal(run.reasoning, 'plan the explanation');
  });
});
