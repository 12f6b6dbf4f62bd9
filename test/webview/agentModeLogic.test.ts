import { strict as assert } from 'node:assert';
import type { AgentTurnMessage } from '../../src/shared/protocol';
import { Actions } from '../../webview-ui/src/actions';
import { callTree, turnSummary, withToolCall } from '../../webview-ui/src/agentTurns';
import { composerPopup } from '../../webview-ui/src/composerPopup';
import { mentionsIn, replaceToken, tokenAt, typedChip } from '../../webview-ui/src/composerTokens';
import { codeReference, textReferences } from '../../webview-ui/src/fileReferences';
import { FakeHostApi } from '../../webview-ui/src/hostApi';
import { applyHostMessage } from '../../webview-ui/src/hostMessages';
import { receiveHostMessage } from '../../webview-ui/src/hostInbox';
import { Store } from '../../webview-ui/src/state';
import { StreamBuffer } from '../../webview-ui/src/streamBuffer';
import { agentTurn, approval, toolCall, toolsList, toolsState } from './support/agentBuilders';
import { conversation, init, user } from './support/builders';

/** Agent mode's plain modules, tested in Node without a DOM (the components are tested in Chromium). */
describe('agent mode logic (no DOM)', () => {
  function setup() {
    const store = new Store();
    const frames: Array<() => void> = [];
    const stream = new StreamBuffer(store, (cb) => frames.push(cb));
    const host = new FakeHostApi();
    const actions = new Actions(host, store);
    const tick = () => frames.splice(0).forEach((frame) => frame());
    return { store, stream, frames, host, actions, tick };
  }

  const turnIn = (store: Store, id = 't1') => store.findMessage(id) as AgentTurnMessage;

  describe('agent turns', () => {
    it('upserts calls by id and parent; unchanged calls keep their identity', () => {
      const a = toolCall('c1');
      const b = toolCall('c1', { parentCallId: 'c2' });
      let turn = withToolCall(withToolCall(agentTurn('t1'), a), b);
      assert.equal(turn.toolCalls.length, 2, 'the same id under a parent is another call');
      turn = withToolCall(turn, { ...b, status: 'error' });
      assert.equal(turn.toolCalls[0], a);
      assert.equal(turn.toolCalls[1].status, 'error');
    });

    it('nests sub-agent calls under the call that started them, in order; an unknown parent stays visible at the top', () => {
      const calls = [
        toolCall('p'),
        toolCall('x', { parentCallId: 'p' }),
        toolCall('q'),
        toolCall('y', { parentCallId: 'gone' }),
        toolCall('z', { parentCallId: 'p' }),
      ];
      const tree = callTree(calls);
      assert.deepEqual(
        tree.map((n) => [n.call.id, n.children.map((c) => c.call.id)]),
        [
          ['p', ['x', 'z']],
          ['q', []],
          ['y', []],
        ],
      );
      assert.equal(callTree(calls), tree, 'cached per calls array');
    });

    it('summarises a finished turn', () => {
      const turn = agentTurn('t1', {
        toolCalls: [toolCall('a'), toolCall('b'), toolCall('c'), toolCall('d')],
        tokens: { input: 1000, output: 234, total: 1234 },
        durationMs: 12_300,
      });
      assert.equal(turnSummary(turn), 'Used 4 tools · 12.3 s · 1,234 tokens');
      assert.equal(turnSummary(agentTurn('t2', { toolCalls: [toolCall('a')] })), 'Used 1 tool', 'a turn saved before durations were kept has no time');
    });

    it('host messages: started, tool calls and usage batched per frame, done replaces the turn and ends the Stop state', () => {
      const { store, stream, frames, tick } = setup();
      applyHostMessage(store, stream, init({ conversation: conversation('c1', [user('u1', 'q')]) }));
      applyHostMessage(store, stream, {
        type: 'agentTurn/started',
        conversationId: 'c1',
        user: user('u2', 'go'),
        turn: agentTurn('t1', { status: 'streaming' }),
      });
      assert.equal(store.current.activeId, 't1');
      let notified = 0;
      store.watchMessage('t1', () => notified++);
      applyHostMessage(store, stream, { type: 'agentTurn/toolCall', turnId: 't1', call: toolCall('c1', { status: 'running' }) });
      applyHostMessage(store, stream, { type: 'agentTurn/chunk', turnId: 't1', text: 'Reading. ' });
      applyHostMessage(store, stream, { type: 'agentTurn/reasoning', turnId: 't1', text: 'hmm' });
      applyHostMessage(store, stream, { type: 'agentTurn/toolCall', turnId: 't1', call: toolCall('c1') });
      applyHostMessage(store, stream, { type: 'agentTurn/usage', turnId: 't1', iterations: 1, tokens: { input: 1, output: 2, total: 3 } });
      applyHostMessage(store, stream, { type: 'agentTurn/warning', turnId: 't1', message: 'careful' });
      assert.equal(frames.length, 1, 'one frame for the whole burst');
      tick();
      assert.equal(notified, 1, 'the turn re-rendered once');
      const live = turnIn(store);
      assert.deepEqual(
        [live.answer, live.reasoning, live.toolCalls.map((c) => c.status), live.tokens?.total, live.warnings],
        ['Reading. ', 'hmm', ['ok'], 3, ['careful']],
      );
      applyHostMessage(store, stream, { type: 'agentTurn/chunk', turnId: 't1', text: 'late' });
      applyHostMessage(store, stream, { type: 'agentTurn/done', turn: agentTurn('t1', { answer: 'Final.', durationMs: 4200 }) });
      assert.equal(turnIn(store).answer, 'Final.', 'the host copy wins over buffered text');
      assert.equal(store.current.activeId, undefined);
      assert.equal(turnIn(store).durationMs, 4200, 'the time the host measured is the one kept');
    });

    it('a conversation with a streaming turn (reload mid-turn) keeps Stop', () => {
      const { store, stream } = setup();
      applyHostMessage(store, stream, init({ conversation: conversation('c1', [user('u1', 'q'), agentTurn('t1', { status: 'streaming' })]) }));
      assert.equal(store.current.activeId, 't1');
    });
  });

  describe('approvals, tools, mode and chips', () => {
    it('approval cards upsert by id, settle, answer once, and go with their turn', () => {
      const { store, stream, host, actions } = setup();
      applyHostMessage(store, stream, approval());
      applyHostMessage(store, stream, approval());
      assert.equal(store.current.approvals.length, 1);
      actions.agentMode.approve('ap1', 'deny', '  no  ');
      actions.agentMode.approve('ap1', 'allow-once');
      assert.deepEqual(host.ofType('agent/approve'), [{ type: 'agent/approve', approvalId: 'ap1', decision: 'deny', reason: 'no' }]);
      applyHostMessage(store, stream, { type: 'agent/approvalSettled', approvalId: 'ap1', callId: 'c-edit', outcome: 'deny' });
      assert.equal(store.current.approvals[0].settled, 'deny');
      applyHostMessage(store, stream, { type: 'agentTurn/done', turn: agentTurn('t1') });
      assert.deepEqual(store.current.approvals, []);
    });

    it('tool switches show at once and post the settings; the host list replaces them', () => {
      const { store, stream, host, actions } = setup();
      applyHostMessage(store, stream, toolsList());
      actions.agentMode.toggleTool('run_command', false);
      actions.agentMode.toggleTool('summarize_folder', true);
      assert.equal(store.current.tools?.tools.find((t) => t.name === 'run_command')?.enabled, false);
      assert.equal(store.current.tools?.tools.find((t) => t.name === 'summarize_folder')?.enabled, false, 'a workflow-only tool never turns on here');
      actions.agentMode.setToolsEnabled(false);
      actions.agentMode.setEnableNewTools(false);
      assert.deepEqual(
        host.posted.map((m) => m.type),
        ['tools/toggle', 'tools/toggle', 'tools/setEnabled', 'tools/setEnableNewTools'],
      );
      applyHostMessage(store, stream, toolsList());
      assert.equal(store.current.tools?.enabled, true);
    });

    it('before the host has said the mode, a question goes as agent/send with no mode: the host answers it by the user’s setting', () => {
      const { store, stream, host, actions } = setup();
      applyHostMessage(store, stream, toolsList());
      assert.equal(store.current.mode, 'chat', 'the switch shows chat meanwhile');
      assert.equal(actions.submit('Where is the parser? @read_file'), true);
      applyHostMessage(store, stream, { type: 'chat/mode', mode: 'chat' });
      assert.equal(actions.submit('plain'), true);
      assert.deepEqual(host.posted, [
        { type: 'agent/send', text: 'Where is the parser? @read_file', mentions: ['read_file'], attachments: [] },
        { type: 'chat/send', text: 'plain' },
      ]);
    });

    it('sends agent/send in agent mode with the known mentions and the chips; chat/send in chat mode without chips', async () => {
      const { store, stream, host, actions } = setup();
      applyHostMessage(store, stream, toolsList());
      applyHostMessage(store, stream, { type: 'chat/mode', mode: 'chat' });
      actions.submit('plain');
      applyHostMessage(store, stream, { type: 'chat/mode', mode: 'agent' });
      applyHostMessage(store, stream, { type: 'context/add', attachment: { kind: 'file', path: 'a.ts' } });
      applyHostMessage(store, stream, { type: 'context/add', attachment: { kind: 'file', path: 'a.ts' } });
      actions.agentMode.addChip({ kind: 'editor-selection' });
      assert.equal(actions.submit('use @read_file and @summarize_folder and @read_file'), true);
      assert.deepEqual(store.current.chips, []);
      const request = host.ofType('selection/request')[0]!;
      assert.equal(actions.submit('another one'), false, 'one message at a time waits for the selection');
      assert.equal(
        actions.requests.settle({
          type: 'selection/current',
          requestId: 'not-asked',
          selection: { kind: 'selection', path: 'x.ts', startLine: 1, endLine: 1 },
        }),
        false,
        'a reply nobody asked for is dropped',
      );
      assert.equal(
        actions.requests.settle({
          type: 'selection/current',
          requestId: request.requestId,
          selection: { kind: 'selection', path: 'b.ts', startLine: 2, endLine: 4 },
        }),
        true,
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(host.posted, [
        { type: 'chat/send', text: 'plain' },
        { type: 'selection/request', requestId: request.requestId },
        {
          type: 'agent/send',
          text: 'use @read_file and @summarize_folder and @read_file',
          mode: 'agent',
          mentions: ['read_file'],
          attachments: [
            { kind: 'file', path: 'a.ts' },
            { kind: 'selection', path: 'b.ts', startLine: 2, endLine: 4 },
          ],
        },
      ]);
      actions.agentMode.setMode('chat');
      actions.agentMode.setMode('chat');
      assert.deepEqual(host.ofType('chat/setMode'), [{ type: 'chat/setMode', mode: 'chat' }]);
    });

    it('#file: completion asks with path/suggest and keeps only the answer to the latest request', async () => {
      const { store, stream, host, actions } = setup();
      actions.agentMode.suggestFiles('s', 0);
      await new Promise((resolve) => setTimeout(resolve, 5));
      actions.agentMode.suggestFiles('sr', 0);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const [first, second] = host.ofType('path/suggest');
      receiveHostMessage(actions, store, stream, { type: 'path/suggestions', requestId: second.requestId, items: ['src/'] });
      receiveHostMessage(actions, store, stream, { type: 'path/suggestions', requestId: first.requestId, items: ['stale/'] });
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(store.current.fileCompletion?.items, ['src/']);
    });
  });

  describe('composer words', () => {
    it('finds the word at the caret', () => {
      assert.deepEqual(tokenAt('ask @re', 7), { kind: 'mention', start: 4, end: 7, query: 're' });
      assert.deepEqual(
        tokenAt('ask @re more', 6),
        { kind: 'mention', start: 4, end: 7, query: 'r' },
        'the query is what precedes the caret; a pick replaces the whole word',
      );
      assert.deepEqual(tokenAt('#fi', 3), { kind: 'hash', start: 0, end: 3, query: 'fi' });
      assert.deepEqual(tokenAt('x #file:src/a', 13), { kind: 'file', start: 2, end: 13, query: 'src/a' });
      assert.equal(tokenAt('mail a@b', 8), undefined, 'an @ inside a word is not a mention');
      assert.equal(tokenAt('@a b', 4), undefined);
      assert.deepEqual(replaceToken('ask @re now', { kind: 'mention', start: 4, end: 7, query: 're' }, '@read_file '), {
        text: 'ask @read_file  now',
        caret: 15,
      });
    });

    it('turns a finished #selection or #file:path into a chip', () => {
      assert.deepEqual(typedChip('see #file:./src/a.ts, ', 22), {
        chip: { kind: 'attachment', attachment: { kind: 'file', path: 'src/a.ts' } },
        text: 'see ',
        caret: 4,
      });
      assert.deepEqual(typedChip('#selection\n', 11), { chip: { kind: 'editor-selection' }, text: '', caret: 0 });
      assert.equal(typedChip('#selections ', 12), undefined);
    });

    it('mentions only name known tools, each once', () => {
      assert.deepEqual(mentionsIn('@a and @b, @a; x@a @c', new Set(['a', 'c'])), ['a', 'c']);
    });

    it('the popup: commands, tools in agent mode only, # items, paths', () => {
      const base = { mode: 'agent' as const, tools: toolsState() };
      assert.equal(composerPopup({ ...base, draft: '/h', caret: 2 })?.kind, 'command');
      assert.deepEqual(
        composerPopup({ ...base, draft: '@ru', caret: 3 })?.items.map((i) => i.id),
        ['run_command'],
      );
      assert.equal(composerPopup({ ...base, mode: 'chat', draft: '@', caret: 1 }), undefined);
      assert.equal(composerPopup({ ...base, draft: '@', caret: 1, dismissedToken: 'mention@0' }), undefined);
      assert.deepEqual(
        composerPopup({ ...base, draft: '#s', caret: 2 })?.items.map((i) => i.id),
        ['selection'],
      );
      assert.deepEqual(
        composerPopup({ ...base, draft: '#file:', caret: 6, fileCompletion: { items: ['a.ts'] } })?.items.map((i) => i.id),
        ['a.ts'],
      );
    });
  });

  describe('file references', () => {
    it('in running text: a path with a folder, or a file name with a line', () => {
      assert.deepEqual(textReferences('See src/a.ts:12, lib/b.md and c.ts:3#x or d.ts#L9.'), [
        { path: 'src/a.ts', line: 12, index: 4, length: 11 },
        { path: 'lib/b.md', index: 17, length: 8 },
        { path: 'c.ts', line: 3, index: 30, length: 6 },
        { path: 'd.ts', line: 9, index: 42, length: 7 },
      ]);
      assert.deepEqual(textReferences('no: e.g. 1.2:3, https://x.org/a/b.ts, /etc/x.ts, ../up/x.ts, ~/h/x.ts, a/./b.ts, a@b/c.ts'), []);
    });

    it('in inline code: the whole span must be a file', () => {
      assert.deepEqual(codeReference('src/a.ts:7:2'), { path: 'src/a.ts', line: 7 });
      assert.deepEqual(codeReference('package.json'), { path: 'package.json' });
      assert.deepEqual(codeReference('docker/Dockerfile:3'), { path: 'docker/Dockerfile', line: 3 });
      for (const text of ['console.log', 'npm test', 'src/', 'obj.prop', '../a.ts', '/a.ts', 'x.y()']) assert.equal(codeReference(text), undefined, text);
    });
  });
});
