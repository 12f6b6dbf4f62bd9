import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTurnMessage, UserMessage } from '../../src/core/history';
import { AgentModeFixture, toolResults } from './agentModeBuilders';

const APP = 'export function app() {\n  return "APP_BODY";\n}\n';
const FILES = { 'src/app.ts': APP, 'src/util.ts': 'line one\nline two\nline three\nline four\n', '.env': 'API_TOKEN=shh\n' };

describe('agent mode in a conversation session', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture(FILES).start();
  });
  afterEach(async () => fx.close());
  const appOnDisk = () => readFileSync(join(fx.ws.root, 'src/app.ts'), 'utf8');

  it('a turn that reads a file and answers is streamed, saved with its tool calls, and restored', async () => {
    fx.server.enqueue({ toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/app.ts' } }] }, { chunks: ['It returns ', 'a constant string.'] });
    const before = performance.now();
    await fx.session.sendAgent('What does app() return?', { openFile: 'src/app.ts' });
    const elapsed = performance.now() - before;

    const started = fx.of('agentTurn/started')[0]!;
    assert.equal(started.user.text, 'What does app() return?');
    assert.deepEqual([started.turn.status, started.turn.toolCalls], ['streaming', []]);
    assert.deepEqual(
      fx.of('agentTurn/toolCall').map(({ call }) => [call.id, call.tool, call.status]),
      [
        ['c1', 'read_file', 'running'],
        ['c1', 'read_file', 'ok'],
      ],
    );
    assert.deepEqual(
      fx.of('agentTurn/chunk').map((m) => m.text),
      ['It returns ', 'a constant string.'],
    );
    const done = fx.of('agentTurn/done')[0]!.turn;
    assert.equal(done.status, 'done');
    assert.ok(
      done.durationMs! > 0 && done.durationMs! <= Math.ceil(elapsed),
      `the view is told how long the turn took, in milliseconds: ${done.durationMs} of ${elapsed}`,
    );
    assert.match(fx.server.requests[0]!.promptText, /src\/app\.ts/, 'the open file is named to the model');
    assert.match(toolResults(fx.server, 1)[0]!, /APP_BODY/);

    const messages = await fx.reopen();
    assert.deepEqual(
      messages.map((m) => m.kind),
      ['user', 'agent-turn'],
    );
    const turn = messages[1] as AgentTurnMessage;
    assert.equal(turn.status, 'done');
    assert.equal(turn.stopReason, 'answered');
    assert.equal(turn.answer, 'It returns a constant string.');
    assert.equal(turn.model, 'main-model');
    assert.equal(turn.openFile, 'src/app.ts');
    assert.equal(turn.iterations, 2);
    assert.equal(turn.durationMs, done.durationMs, 'and history keeps it');
    assert.ok(turn.tokens!.total > 0);
    const [call] = turn.toolCalls;
    assert.deepEqual(
      [call!.id, call!.tool, call!.displayName, call!.kind, call!.status, call!.argsSummary],
      ['c1', 'read_file', 'Read file', 'read', 'ok', 'path="src/app.ts"'],
    );
    assert.deepEqual(call!.args, { path: 'src/app.ts' });
    assert.match(call!.output!, /APP_BODY/);
    assert.equal(typeof call!.durationMs, 'number');
  });

  it('history search finds text that only a tool result contains, and the Markdown export writes the calls', async () => {
    fx.server.enqueue({ toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/app.ts' } }] }, { text: 'It returns a constant.' });
    await fx.session.sendAgent('What does app() return?');
    await fx.reopen();
    const [summary] = fx.history.listConversations();
    assert.deepEqual(
      fx.history.search('APP_BODY').map((s) => s.id),
      [summary!.id],
    );
    assert.deepEqual(fx.history.search('no such text anywhere'), []);

    const markdown = fx.history.exportMarkdown(summary!.id);
    assert.match(markdown, /## You\n\nWhat does app\(\) return\?/);
    assert.match(markdown, /## Agent \(main-model\)/);
    assert.match(markdown, /\*\*Tool calls\*\*/);
    assert.match(markdown, /1\. ✓ `read_file` path="src\/app\.ts" \(ok, \d+ ms\)/);
    assert.match(markdown, /```text\n[^]*APP_BODY[^]*\n```/);
    assert.match(markdown, /\*\*Answer\*\*\n\nIt returns a constant\./);
  });

  it('Deny on the approval card: the file on disk is unchanged and the model is told why', async () => {
    fx.server.enqueue(
      { toolCalls: [{ id: 'w1', name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'APP_BODY', new_text: 'NEW_BODY' } }] },
      { text: 'Left it as it is.' },
    );
    fx.onPost = (message) => {
      if (message.type === 'agent/approval') fx.session.answerApproval(message.approvalId, 'deny', 'keep it');
    };
    await fx.session.sendAgent('Rename the body');

    assert.equal(appOnDisk(), APP);
    const [card] = fx.of('agent/approval');
    assert.deepEqual([card!.tool, card!.kind, card!.callId, card!.canAllowForConversation, card!.parentCallId], ['edit_file', 'write', 'w1', true, undefined]);
    assert.equal(card!.turnId, fx.of('agentTurn/started')[0]!.turn.id);
    assert.equal(card!.preview.type, 'diff');
    assert.match((card!.preview as { diff: string }).diff, /-  return "APP_BODY";\n\+  return "NEW_BODY";/);
    assert.deepEqual(
      fx.of('agent/approvalSettled').map((m) => [m.approvalId, m.outcome]),
      [[card!.approvalId, 'deny']],
    );
    assert.match(toolResults(fx.server, 1)[0]!, /The user denied this call; it did not run\. Reason: keep it/);

    const turn = await fx.lastTurn();
    const [call] = turn.toolCalls;
    assert.equal(call!.status, 'denied');
    assert.deepEqual(call!.approval, { decision: 'deny', by: 'user', reason: 'keep it' });
    assert.equal(call!.preview?.type, 'diff');
  });

  it("a sub-agent's write asks with a card that names the call that started the sub-agent (parentCallId)", async () => {
    const scribe =
      'name: scribe\ndescription: Writes notes\ninputs:\n  - name: topic\n    type: string\n    description: What about\nsystem: "Write notes about {topic}."\ntools: [read_file, write_file]\nmax_iterations: 3\n';
    const sub = await new AgentModeFixture({ ...FILES, '.codewiki/agents/scribe.yaml': scribe }).start();
    try {
      sub.server.enqueue(
        { toolCalls: [{ id: 'call_parent', name: 'scribe', arguments: { topic: 'app' } }] },
        { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'NOTES.md', content: 'notes\n' } }] },
        { text: 'Written.' },
        { text: 'The scribe wrote NOTES.md.' },
      );
      sub.onPost = (message) => {
        if (message.type === 'agent/approval') sub.session.answerApproval(message.approvalId, 'allow-once');
      };
      await sub.session.sendAgent('Write notes about app');

      const [card] = sub.of('agent/approval');
      assert.deepEqual([card!.tool, card!.callId, card!.parentCallId], ['write_file', 'call_write', 'call_parent']);
      assert.equal(readFileSync(join(sub.ws.root, 'NOTES.md'), 'utf8'), 'notes\n');
      const calls = (await sub.lastTurn()).toolCalls;
      assert.deepEqual(
        calls.map((c) => [c.id, c.parentCallId, c.status]),
        [
          ['call_parent', undefined, 'ok'],
          ['call_write', 'call_parent', 'ok'],
        ],
      );
    } finally {
      await sub.close();
    }
  });

  it('Allow once: the diff editor gets the proposed file while the card waits, and the file changes after', async () => {
    fx.server.enqueue(
      { toolCalls: [{ id: 'w1', name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'APP_BODY', new_text: 'NEW_BODY' } }] },
      { text: 'Changed.' },
    );
    let proposed: Awaited<ReturnType<typeof fx.session.proposedChange>> | Error | undefined;
    let waiting: string[] = [];
    let onDiskWhileWaiting = '';
    fx.onPost = (message) => {
      if (message.type !== 'agent/approval') return;
      void (async () => {
        try {
          proposed = await fx.session.proposedChange(message.approvalId);
          waiting = fx.session.pendingApprovals().map((prompt) => prompt.approvalId);
          onDiskWhileWaiting = appOnDisk();
        } catch (error) {
          proposed = error as Error;
        } finally {
          fx.session.answerApproval(message.approvalId, 'allow-once');
        }
      })();
    };
    await fx.session.sendAgent('Rename the body');

    assert.equal(onDiskWhileWaiting, APP, 'nothing is written while the card waits');
    assert.equal(appOnDisk(), APP.replace('APP_BODY', 'NEW_BODY'));
    assert.deepEqual(proposed, {
      path: 'src/app.ts',
      absolutePath: join(fx.engine.workspace.root, 'src/app.ts'),
      proposed: APP.replace('APP_BODY', 'NEW_BODY'),
    });
    assert.deepEqual(waiting, [fx.of('agent/approval')[0]!.approvalId], 'a re-created view can be given the waiting card');
    assert.deepEqual(fx.session.pendingApprovals(), []);
    await assert.rejects(fx.session.proposedChange(fx.of('agent/approval')[0]!.approvalId), /no longer waiting/);
    const [call] = (await fx.lastTurn()).toolCalls;
    assert.deepEqual([call!.status, call!.approval], ['ok', { decision: 'allow-once', by: 'user' }]);
  });

  it('Allow in this conversation: the next turn of the same conversation does not ask again', async () => {
    let step = 0;
    fx.server.respondWith(() => {
      step++;
      if (step === 1) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'APP_BODY', new_text: 'B2' } }] };
      if (step === 3) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'B2', new_text: 'B3' } }] };
      return { text: `done ${step}` };
    });
    fx.onPost = (message) => {
      if (message.type === 'agent/approval') fx.session.answerApproval(message.approvalId, 'allow-conversation');
    };
    await fx.session.sendAgent('first edit');
    await fx.session.sendAgent('second edit');
    assert.equal(fx.of('agent/approval').length, 1);
    assert.equal(appOnDisk(), APP.replace('APP_BODY', 'B3'));
    const [first, second] = (await fx.reopen()).filter((m): m is AgentTurnMessage => m.kind === 'agent-turn');
    assert.deepEqual(first!.toolCalls[0]!.approval, { decision: 'allow-conversation', by: 'user' });
    assert.deepEqual(second!.toolCalls[0]!.approval, { decision: 'allow-conversation', by: 'conversation' });
    const secondTurnFirstRequest = fx.server.messagesOf(2);
    assert.deepEqual(
      secondTurnFirstRequest.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]),
      [
        ['user', 'first edit'],
        ['assistant', 'done 2'],
        ['user', 'second edit'],
      ],
      'earlier turns go to the model as question and answer',
    );
  });

  it('Stop while the approval card waits: the approval is cancelled, nothing is written, the turn is saved as stopped', async () => {
    fx.server.enqueue({ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.md', content: 'hello\n' } }] });
    fx.onPost = (message) => {
      if (message.type === 'agent/approval') fx.session.stop();
    };
    await fx.session.sendAgent('Write notes');

    assert.equal(existsSync(join(fx.ws.root, 'notes.md')), false);
    const [card] = fx.of('agent/approval');
    assert.deepEqual(
      fx.of('agent/approvalSettled').map((m) => [m.approvalId, m.outcome]),
      [[card!.approvalId, 'cancelled']],
    );
    assert.equal(fx.server.requests.length, 1, 'no further model call after Stop');
    const done = fx.of('agentTurn/done')[0]!.turn;
    assert.equal(done.status, 'stopped');
    assert.equal(done.stopReason, 'cancelled');
    const turn = await fx.lastTurn();
    assert.equal(turn.status, 'stopped');
    assert.deepEqual(
      turn.toolCalls.map((c) => [c.tool, c.status]),
      [['write_file', 'cancelled']],
    );
    fx.session.answerApproval(card!.approvalId, 'allow-once');
    assert.match(fx.of('error/show').at(-1)!.message, /no longer waiting/, 'a late answer to the closed card does nothing');
    assert.equal(existsSync(join(fx.ws.root, 'notes.md')), false);
  });

  it('#file and #selection attachments go to the model with the question, read through the workspace policy', async () => {
    fx.server.enqueue({ text: 'Seen.' });
    await fx.session.sendAgent('Explain these', {
      attachments: [{ kind: 'file', path: 'src/app.ts' }],
      selection: { path: 'src/util.ts', startLine: 2, endLine: 3 },
    });
    const asked = fx.server.messagesOf(0).at(-1)!;
    assert.equal(asked.role, 'user');
    const text = String(asked.content);
    assert.match(text, /^Explain these\n/);
    assert.match(text, /File `src\/app\.ts`:\n```typescript\n[^]*APP_BODY/);
    assert.match(text, /Selection from `src\/util\.ts`, lines 2–3:\n```typescript\nline two\nline three\n```$/);
    assert.doesNotMatch(text, /line one|line four/);
    const messages = await fx.reopen();
    assert.equal((messages[0] as UserMessage).text, 'Explain these', 'history keeps what the user typed');
    assert.deepEqual((messages[1] as AgentTurnMessage).context, [
      { kind: 'file', path: 'src/app.ts' },
      { kind: 'selection', path: 'src/util.ts', startLine: 2, endLine: 3 },
    ]);
  });

  it('an attachment outside the workspace or of a secret file is refused before anything is saved or sent', async () => {
    await fx.session.sendAgent('Leak it', { attachments: [{ kind: 'file', path: '.env' }] });
    await fx.session.sendAgent('Escape', { attachments: [{ kind: 'file', path: '../../etc/passwd' }] });
    await fx.session.sendChat('Leak in chat mode', { selection: { path: '.env', startLine: 1, endLine: 1 } });
    const errors = fx.of('error/show').map((m) => m.message);
    assert.equal(errors.length, 3);
    assert.match(errors[0]!, /^Cannot attach "?\.env"?: .*may contain secrets/);
    assert.match(errors[1]!, /outside the workspace/);
    assert.match(errors[2]!, /may contain secrets/);
    assert.equal(fx.server.requests.length, 0);
    assert.equal(fx.history.listConversations().length, 0);
  });

  it('@tool mentions are forced on the first model call', async () => {
    fx.server.enqueue({ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'Listed.' });
    await fx.session.sendAgent('what is here?', { mentions: ['@list_files'] });
    assert.deepEqual(fx.server.requests[0]!.body!.tool_choice, { type: 'function', function: { name: 'list_files' } });
    assert.deepEqual((await fx.lastTurn()).mentions, ['list_files']);
  });

  it('refuses in Restricted Mode (no engine) with a clear message, saving and sending nothing', async () => {
    const restricted = fx.newSession({
      engine: async () => ({ unavailable: 'This workspace is in Restricted Mode: trust it to run action prompts (they read workspace files).' }),
    });
    await restricted.sendAgent('Read my files');
    assert.deepEqual(fx.posted, [
      {
        type: 'error/show',
        message:
          'Agent mode cannot run here: This workspace is in Restricted Mode: trust it to run action prompts (they read workspace files). Chat mode still answers without workspace tools.',
      },
    ]);
    assert.equal(fx.history.listConversations().length, 0);
    assert.equal(fx.server.requests.length, 0);
    const tools = await restricted.toolsState();
    assert.deepEqual([tools.tools, /Restricted Mode/.test(tools.unavailable ?? '')], [[], true]);
  });

  it('a failed turn is saved as an error and can be retried in place', async () => {
    fx.server.enqueue({ status: 500, body: { error: { message: 'boom' } } }, { text: 'Recovered.' });
    await fx.session.sendAgent('Question');
    const failed = fx.of('agentTurn/done')[0]!.turn;
    assert.equal(failed.status, 'error');
    assert.match(failed.error!, /500/);
    await fx.session.retry(failed.id);
    const messages = fx.session.current()!.messages;
    assert.deepEqual(
      messages.map((m) => [m.kind, m.id === failed.id]),
      [
        ['user', false],
        ['agent-turn', true],
      ],
    );
    assert.equal((messages[1] as AgentTurnMessage).answer, 'Recovered.');
    assert.equal((messages[1] as AgentTurnMessage).status, 'done');
  });

  it('a view re-created mid-turn gets the live turn, with the calls so far', async () => {
    fx.server.enqueue({ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.md', content: 'x\n' } }] }, { text: 'ok' });
    let live: AgentTurnMessage | undefined;
    fx.onPost = (message) => {
      if (message.type !== 'agent/approval') return;
      live = fx.session.current()!.messages[1] as AgentTurnMessage;
      fx.session.answerApproval(message.approvalId, 'deny');
    };
    await fx.session.sendAgent('Write');
    assert.deepEqual([live!.status, live!.toolCalls.map((c) => c.status)], ['streaming', ['awaiting-approval']]);
  });
});
