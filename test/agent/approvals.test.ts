import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConversationApprovals } from '../../src/core/agent/approvalGate';
import { AutoApprovalPolicy, isCompoundCommand } from '../../src/core/agent/autoApprovalPolicy';
import { compileActionPrompt } from '../../src/core/actionPrompt/compileActionPrompt';
import { AgentFixture, ScriptedGate, toolText } from './agentHarness';

const ORIGINAL = 'export const a = 1;\nexport const b = 2;\n';
const FILES = { 'src/a.ts': ORIGINAL };

describe('agent approvals', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.close());
  const fileA = () => readFileSync(join(fx.root, 'src/a.ts'), 'utf8');

  it('Deny: the tool never runs, the file is unchanged on disk, and the model gets the denial with the reason', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ id: 'w1', name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'const a = 1', new_text: 'const a = 42' } }] },
      { text: 'Understood, I left it.' },
    ]).start();
    const gate = new ScriptedGate([{ decision: 'deny', reason: 'keep a at 1' }]);
    const result = await fx.ask('set a to 42', { gate });

    assert.equal(fileA(), ORIGINAL);
    assert.equal(result.answer, 'Understood, I left it.');
    const [request] = gate.requests;
    assert.equal(request!.tool, 'edit_file');
    assert.equal(request!.kind, 'write');
    assert.equal(request!.conversationId, 'conv-1');
    assert.deepEqual(request!.args, { path: 'src/a.ts', old_text: 'const a = 1', new_text: 'const a = 42' });
    assert.equal(request!.preview.type, 'diff');
    assert.equal(
      (request!.preview as { diff: string }).diff,
      '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-export const a = 1;\n+export const a = 42;\n export const b = 2;\n',
      'the exact change, as a unified diff, before anything ran',
    );
    const message = toolText(fx.toolMessages(1)[0]!.content);
    assert.match(message, /The user denied this call; it did not run\. Reason: keep a at 1/);
    assert.equal(fx.eventsOf('tool-call-end')[0]!.status, 'denied');
    assert.deepEqual(
      fx.eventsOf('approval-decided').map((e) => [e.decision, e.by, e.reason]),
      [['deny', 'user', 'keep a at 1']],
    );
    assert.equal(result.log.iterations[0]!.toolCalls[0]!.approval!.decision, 'deny');
  });

  it('Allow once: the change is made, and the next write asks again', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/new/notes.md', content: '# Notes\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/new/more.md', content: 'more\n' } }] },
      { text: 'done' },
    ]).start();
    const gate = new ScriptedGate([{ decision: 'allow-once' }, { decision: 'deny' }]);
    await fx.ask('write notes', { gate });
    assert.equal(readFileSync(join(fx.root, 'docs/new/notes.md'), 'utf8'), '# Notes\n', 'missing folders are created');
    assert.equal(existsSync(join(fx.root, 'docs/new/more.md')), false);
    assert.equal(gate.requests.length, 2);
    assert.equal((gate.requests[0]!.preview as { diff: string }).diff, '--- /dev/null\n+++ b/docs/new/notes.md\n@@ -0,0 +1 @@\n+# Notes\n');
    assert.match(toolText(fx.toolMessages(1)[0]!.content), /^Created docs\/new\/notes\.md \(1 line\)\.$/);
  });

  it('Allow in this conversation: remembered per conversation and per tool', async () => {
    fx = await new AgentFixture(FILES).start();
    let step = 0;
    fx.server.respondWith(() => {
      step++;
      if (step === 1) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a = 1', new_text: 'a = 10' } }] };
      if (step === 2) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'b = 2', new_text: 'b = 20' } }] };
      if (step === 3) return { toolCalls: [{ name: 'write_file', arguments: { path: 'c.ts', content: 'c\n' } }] };
      if (step === 4) return { text: 'edited' };
      if (step === 5) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a = 10', new_text: 'a = 100' } }] };
      return { text: 'again' };
    });
    const memory = new ConversationApprovals();
    const gate = new ScriptedGate([{ decision: 'allow-conversation' }, { decision: 'deny' }, { decision: 'deny' }]);
    await fx.ask('edit twice', { gate, approvalMemory: memory });
    assert.equal(fileA(), 'export const a = 10;\nexport const b = 20;\n');
    assert.deepEqual(
      gate.requests.map((r) => r.tool),
      ['edit_file', 'write_file'],
      'the second edit_file did not ask; write_file is another tool',
    );
    assert.deepEqual(
      fx.eventsOf('approval-decided').map((e) => `${e.tool}:${e.decision}:${e.by}`),
      ['edit_file:allow-conversation:user', 'edit_file:allow-conversation:conversation', 'write_file:deny:user'],
    );

    await fx.ask('edit in another conversation', { gate, approvalMemory: memory }, { conversationId: 'conv-2' });
    assert.equal(gate.requests.length, 3, 'another conversation asks again');
    assert.equal(fileA(), 'export const a = 10;\nexport const b = 20;\n');
  });

  it('a user-level policy auto-approves without asking', async () => {
    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a = 1', new_text: 'a = 5' } }] },
      { text: 'ok' },
    ]).start();
    const gate = new ScriptedGate();
    await fx.ask('edit', { gate, approvalPolicy: AutoApprovalPolicy.fromUserSettings({ kinds: ['write'] }) });
    assert.equal(gate.requests.length, 0);
    assert.equal(fileA(), 'export const a = 5;\nexport const b = 2;\n');
    assert.deepEqual(
      fx.eventsOf('approval-decided').map((e) => e.by),
      ['policy'],
    );
  });

  describe('nothing from the workspace can grant auto-approval', () => {
    const call = { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'a = 1', new_text: 'a = 666' } }] };

    it('a policy built from workspace, action-prompt or agent-definition layers grants nothing and says so', async () => {
      const grant = { kinds: ['write', 'execute'], tools: ['edit_file', 'run_command'], commands: ['*'] };
      const policy = AutoApprovalPolicy.fromSettingLayers([
        { origin: 'workspace', value: grant },
        { origin: 'workspace-folder', value: grant },
        { origin: 'action-prompt', value: grant },
        { origin: 'agent-definition', value: grant },
        { origin: 'model', value: grant },
      ]);
      assert.equal(policy.autoApproves({ name: 'edit_file', kind: 'write' }), false);
      assert.equal(policy.autoApproves({ name: 'run_command', kind: 'execute' }, 'ls'), false);
      assert.equal(policy.ignored.length, 5);

      const inspected = AutoApprovalPolicy.fromInspectedSetting({ defaultValue: {}, workspaceValue: grant, workspaceFolderValue: grant });
      assert.equal(inspected.autoApproves({ name: 'edit_file', kind: 'write' }), false);
      assert.match(inspected.ignored.join('\n'), /from workspace settings was ignored: only your user settings can grant it/);

      fx = await new AgentFixture(FILES, [call, { text: 'ok' }]).start();
      const gate = new ScriptedGate([{ decision: 'deny' }]);
      await fx.ask('edit', { gate, approvalPolicy: policy });
      assert.equal(gate.requests.length, 1, 'it asked');
      assert.equal(fileA(), ORIGINAL);
      assert.ok(
        fx.eventsOf('warning').some((w) => /from workspace settings was ignored/.test(w.message)),
        'the attempt is visible',
      );
    });

    it('an object shaped like a policy (e.g. parsed from a repository file) is not honoured', async () => {
      const real = AutoApprovalPolicy.fromUserSettings({ kinds: ['write'] });
      const forged = { kinds: new Set(['write']), tools: new Set(['edit_file']), commands: ['*'], ignored: [], autoApproves: () => true };
      assert.equal(AutoApprovalPolicy.isGenuine(real), true);
      assert.equal(AutoApprovalPolicy.isGenuine(forged), false);
      assert.equal(AutoApprovalPolicy.isGenuine(JSON.parse(JSON.stringify(real))), false);
      assert.equal(AutoApprovalPolicy.isGenuine(Object.create(AutoApprovalPolicy.prototype)), false);
      assert.ok(Object.isFrozen(real));

      fx = await new AgentFixture(FILES, [call, { text: 'ok' }]).start();
      const gate = new ScriptedGate([{ decision: 'deny' }]);
      await fx.ask('edit', { gate, approvalPolicy: forged as unknown as AutoApprovalPolicy });
      assert.equal(gate.requests.length, 1);
      assert.equal(fileA(), ORIGINAL);
      assert.ok(fx.eventsOf('warning').some((w) => /not built from user settings and was ignored/.test(w.message)));
    });

    it('the run request has no way to carry approvals', async () => {
      fx = await new AgentFixture(FILES, [call, { text: 'ok' }]).start();
      const gate = new ScriptedGate([{ decision: 'deny' }]);
      // As if a webview message or agent definition smuggled extra fields into the request.
      const smuggled = { approvalPolicy: AutoApprovalPolicy.fromUserSettings({ kinds: ['write'] }), autoApprove: true } as Record<string, unknown>;
      await fx.ask('edit', { gate }, smuggled);
      assert.equal(gate.requests.length, 1);
      assert.equal(fileA(), ORIGINAL);
    });

    it('an action prompt cannot name the write or execute tools at all', async () => {
      fx = await new AgentFixture(FILES).start();
      for (const tool of ['write_file', 'edit_file', 'run_command']) {
        const yaml = `title: sneaky\ntool_chain:\n  - tool: ${tool}\n    input: { path: x, content: y, command: "touch pwned" }\n    output_variable: out\n`;
        assert.throws(
          () => compileActionPrompt(yaml, { file: 'sneaky.yaml', id: 'sneaky', source: 'file', tools: fx.engine.registry }),
          /unknown tool|not a known tool|Unknown tool/i,
        );
        assert.ok(fx.engine.agentRegistry.has(tool));
      }
    });
  });

  describe('run_command', () => {
    it('always asks unless allow-listed; an allow-listed command still asks when it chains, redirects or substitutes', async () => {
      const policy = AutoApprovalPolicy.fromUserSettings({ commands: ['echo', 'node -e'] });
      const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
      fx = await new AgentFixture(FILES, [
        run('echo plain'),
        run('echo hi > out.txt'),
        run('echo a && touch chained.txt'),
        run('touch not-listed.txt'),
        { text: 'done' },
      ]).start();
      const gate = new ScriptedGate([{ decision: 'deny' }, { decision: 'deny' }, { decision: 'deny' }]);
      await fx.ask('run things', { gate, approvalPolicy: policy });

      assert.deepEqual(
        gate.requests.map((r) => (r.preview as { command: string }).command),
        ['echo hi > out.txt', 'echo a && touch chained.txt', 'touch not-listed.txt'],
      );
      assert.deepEqual(
        gate.requests.map((r) => r.canAllowForConversation),
        [false, false, true],
      );
      assert.match(gate.requests[0]!.why, /always asked about, even when allow-listed/);
      for (const file of ['out.txt', 'chained.txt', 'not-listed.txt']) assert.equal(existsSync(join(fx.root, file)), false, `${file} was not created`);
      assert.match(toolText(fx.toolMessages(1)[0]!.content), /^\$ echo plain\nexit code 0\n--- stdout ---\nplain\n/);
    });

    it('"allow in this conversation" remembers the exact command, and --allow execute never covers compound commands', async () => {
      const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
      fx = await new AgentFixture(FILES, [run('touch one.txt'), run('touch  one.txt'), run('touch two.txt'), { text: 'done' }]).start();
      const gate = new ScriptedGate([{ decision: 'allow-conversation' }, { decision: 'allow-once' }]);
      await fx.ask('touch', { gate });
      assert.deepEqual(
        gate.requests.map((r) => (r.preview as { command: string }).command),
        ['touch one.txt', 'touch two.txt'],
      );
      assert.ok(existsSync(join(fx.root, 'two.txt')));

      const executeAll = AutoApprovalPolicy.fromSettingLayers([{ origin: 'cli', value: { kinds: ['execute'] } }]);
      assert.equal(executeAll.autoApproves({ name: 'run_command', kind: 'execute' }, 'npm test'), true);
      for (const compound of ['a; b', 'a && b', 'a || b', 'a | b', 'a > f', 'a < f', 'echo $(id)', 'echo `id`', 'a & b', 'a\nb']) {
        assert.equal(isCompoundCommand(compound), true, compound);
        assert.equal(executeAll.autoApproves({ name: 'run_command', kind: 'execute' }, compound), false, compound);
      }
      assert.equal(isCompoundCommand('npm test -- --grep "x y"'), false);
    });
  });

  it("edit_file's exact-once rule errors go back to the model before anyone is asked", async () => {
    fx = await new AgentFixture({ 'src/a.ts': 'x = 1;\nx = 1;\n' }, [
      { toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'x = 1;', new_text: 'x = 2;' } }] },
      { toolCalls: [{ id: 'e2', name: 'edit_file', arguments: { path: 'src/a.ts', old_text: 'y = 1;', new_text: 'x = 2;' } }] },
      { text: 'gave up' },
    ]).start();
    const gate = new ScriptedGate();
    await fx.ask('edit', { gate });
    assert.equal(gate.requests.length, 0);
    assert.match(toolText(fx.toolMessages(1)[0]!.content), /^Error: old_text occurs 2 times in src\/a\.ts; it must occur exactly once/);
    assert.match(toolText(fx.toolMessages(2).at(-1)!.content), /^Error: old_text was not found in src\/a\.ts \(0 matches\)/);
  });
});
