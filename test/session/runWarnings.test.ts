import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { StateManager, type PromptRunMessage } from '../../src/core/history';
import { ConversationSession } from '../../src/core/session/conversationSession';
import type { HostToWebview } from '../../src/shared/protocol';
import { modelsFor, tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

/**
 * Small real models answer a file selection with prose or invented paths. That must never look like
 * success: the step warns, the run falls back to the summaries' first files visibly, and every warning
 * reaches the extension (on the step and on the run) and history, as the CLI prints them.
 */
describe('run warnings reach the extension and history', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let storage: string;
  let history: StateManager;
  let posted: HostToWebview[];

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({
      'lib/alpha.ts': 'export const alpha = "ALPHA_BODY";\n',
      'lib/beta.ts': 'export const beta = "BETA_BODY";\n',
    });
    storage = mkdtempSync(join(tmpdir(), 'codewiki-state-'));
    history = (await StateManager.open(storage)).manager;
    posted = [];
  });
  afterEach(async () => {
    await history.dispose();
    await server.close();
    ws.cleanup();
    rmSync(storage, { recursive: true, force: true });
  });

  it('an invented file selection warns on the step, falls back to the first files, and is saved', async () => {
    server.respondWith((request) =>
      /most relevant file paths/.test(request.promptText)
        ? { text: 'Sure! The key files are src/engine/core.ts and src/main.py.' }
        : { text: 'A design document.', finishReason: 'length' },
    );
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: modelsFor(server.url) });
    const session = new ConversationSession({
      history,
      models: () => modelsFor(server.url),
      engine: async () => ({ engine }),
      runLogDir: join(storage, 'runs'),
      post: (m) => posted.push(m),
    });
    await session.runPrompt('module-design-doc', { module_path: 'lib', max_files: 1 });

    assert.match(server.lastRequest().promptText, /ALPHA_BODY/, 'the fallback file reaches the final prompt');
    assert.doesNotMatch(server.lastRequest().promptText, /BETA_BODY/, 'max_files still holds');

    const done = posted.find((m) => m.type === 'promptRun/done') as Extract<HostToWebview, { type: 'promptRun/done' }>;
    const selection = done.run.steps.find((s) => s.id === 'selection')!;
    assert.equal(selection.title, 'Select the core files');
    assert.match(
      selection.warnings?.[0] ?? '',
      /named none of the 2 summarised files \(it named src\/engine\/core\.ts, src\/main\.py\); using the first 1 instead: lib\/alpha\.ts/,
    );
    assert.ok(
      posted.some((m) => m.type === 'promptRun/step' && m.step.id === 'selection' && m.step.warnings?.length),
      'the live step shows it',
    );
    assert.equal(done.run.warnings?.length, 2);
    assert.match(done.run.warnings![1], /The answer was cut off/);
    assert.ok((done.run.tokens?.total ?? 0) > 0, 'the run carries its token total');

    await history.dispose();
    history = (await StateManager.open(storage)).manager;
    const [summary] = history.listConversations();
    const saved = history.getConversation(summary.id)!.messages[0] as PromptRunMessage;
    assert.deepEqual(saved.warnings, done.run.warnings);
    assert.deepEqual(saved.steps.find((s) => s.id === 'selection')!.warnings, selection.warnings);
  });
});
