import { strict as assert } from 'node:assert';
import { Actions } from '../../webview-ui/src/actions';
import { SUGGEST_DELAY_MS } from '../../webview-ui/src/agentActions';
import { parseAgentCommand, tokenize } from '../../webview-ui/src/agentCommand';
import { checkForm, initialValues, valuesFromCommand } from '../../webview-ui/src/formModel';
import { FakeHostApi } from '../../webview-ui/src/hostApi';
import { applyHostMessage } from '../../webview-ui/src/hostMessages';
import { receiveHostMessage } from '../../webview-ui/src/hostInbox';
import { matchCommands, parseSlashLine, slashQuery } from '../../webview-ui/src/slashCommands';
import { Store } from '../../webview-ui/src/state';
import { StreamBuffer } from '../../webview-ui/src/streamBuffer';
import { persistUi, restoreUi } from '../../webview-ui/src/uiPersistence';
import { assistant, conversation, everyControlPrompt, init, user } from './support/builders';

/** The webview's plain modules, tested in Node without a DOM (the components are tested in Chromium). */
describe('webview logic (no DOM)', () => {
  describe('form model', () => {
    const prompt = everyControlPrompt();

    it('starts from the defaults, as the controls hold them', () => {
      assert.deepEqual(initialValues(prompt), { topic: '', notes: 'line one', path: 'src', depth: '2', strict: true, level: 'high' });
    });

    it('types values: numbers, booleans, the select option with its own type; empty optional fields are left out', () => {
      const check = checkForm(prompt, { ...initialValues(prompt), topic: 'x', notes: '', depth: '1e3', level: '3' });
      assert.deepEqual(check, { ok: true, inputs: { topic: 'x', path: 'src', depth: 1000, strict: true, level: 3 } });
    });

    it('reports one plain message per invalid field', () => {
      const check = checkForm(prompt, { ...initialValues(prompt), path: '  ', depth: 'ten', level: 'medium', strict: 'maybe' });
      assert.deepEqual(check, {
        ok: false,
        errors: {
          topic: 'Topic is required.',
          path: 'Path is required.',
          depth: 'Depth must be a number.',
          strict: 'Strict must be true or false.',
          level: 'Level must be one of: low, high, 3.',
        },
      });
    });

    it('fills from /agent words: named values, then bare words into the remaining required fields', () => {
      const { values, unknown } = valuesFromCommand(prompt, { TOPIC: 'naming', strict: 'off', bogus: '1' }, ['lib', '5', 'extra']);
      assert.equal(values.topic, 'naming');
      assert.equal(values.strict, false);
      assert.equal(values.path, 'lib');
      assert.equal(values.depth, '5');
      assert.equal(values.level, 'extra');
      assert.deepEqual(unknown, ['bogus']);
    });
  });

  describe('/agent command line', () => {
    it('splits words with quotes and escapes', () => {
      assert.deepEqual(tokenize(`review topic="error \\"handling\\"" note='single \\ kept' a\\ b path=src/"my dir"`), [
        'review',
        'topic=error "handling"',
        'note=single \\ kept',
        'a b',
        'path=src/my dir',
      ]);
      assert.deepEqual(parseAgentCommand('review depth=3 src'), { promptId: 'review', named: { depth: '3' }, positional: ['src'] });
      assert.deepEqual(parseAgentCommand(''), { promptId: undefined, named: {}, positional: [] });
    });

    it('recognises slash lines and the popup query', () => {
      assert.deepEqual(parseSlashLine('/agent  review x=1 '), { name: 'agent', args: 'review x=1' });
      assert.equal(parseSlashLine('not / a command'), undefined);
      assert.equal(slashQuery('/he'), 'he');
      assert.equal(slashQuery('/agent '), undefined, 'the popup closes once arguments start');
      assert.deepEqual(
        matchCommands('h').map((c) => c.name),
        ['history', 'help'],
      );
      assert.deepEqual(
        matchCommands('e').map((c) => c.name),
        ['agent', 'new', 'help'],
      );
    });
  });

  describe('store, host messages and streaming', () => {
    function setup() {
      const store = new Store();
      const frames: Array<() => void> = [];
      const stream = new StreamBuffer(store, (cb) => frames.push(cb));
      return { store, stream, frames };
    }

    it('batches chunks per frame and notifies only the streaming message', () => {
      const { store, stream, frames } = setup();
      applyHostMessage(store, stream, init({ conversation: conversation('c1', [user('u1', 'q')]) }));
      applyHostMessage(store, stream, {
        type: 'chat/started',
        conversationId: 'c1',
        user: user('u2', 'q2'),
        assistant: assistant('a2', '', { status: 'streaming' }),
      });
      let structural = 0;
      const seen: string[] = [];
      store.subscribe(() => structural++);
      store.watchMessage('a2', (m) => seen.push(m.kind === 'assistant' ? m.text : ''));
      store.watchMessage('u1', () => assert.fail('another message was notified'));
      for (const text of ['a', 'b', 'c']) applyHostMessage(store, stream, { type: 'chat/chunk', messageId: 'a2', text });
      assert.equal(frames.length, 1, 'one frame scheduled for three chunks');
      frames.shift()!();
      assert.deepEqual(seen, ['abc']);
      assert.equal(structural, 0, 'chunks cause no structural update');
      assert.equal(store.current.activeId, 'a2');
      applyHostMessage(store, stream, { type: 'chat/chunk', messageId: 'a2', text: 'd' });
      applyHostMessage(store, stream, { type: 'chat/done', message: assistant('a2', 'abcd') });
      assert.deepEqual(seen, ['abc', 'abcd', 'abcd'], 'done flushes pending text first');
      assert.equal(store.current.activeId, undefined);
    });

    it('a retried turn that reuses ids replaces its messages instead of duplicating them', () => {
      const { store, stream } = setup();
      applyHostMessage(store, stream, init({ conversation: conversation('c1', [user('u1', 'q'), assistant('a1', '', { status: 'error', error: 'boom' })]) }));
      applyHostMessage(store, stream, {
        type: 'chat/started',
        conversationId: 'c1',
        user: user('u1', 'q'),
        assistant: assistant('a1', '', { status: 'streaming' }),
      });
      assert.deepEqual(
        store.current.messages.map((m) => m.id),
        ['u1', 'a1'],
      );
    });
  });

  describe('actions and UI state', () => {
    it('posts the protocol messages and keeps UI state (never conversations) in setState', () => {
      const host = new FakeHostApi();
      const store = new Store();
      persistUi(host, (listener) => store.subscribe(listener));
      const actions = new Actions(host, store);
      const stream = new StreamBuffer(store, () => undefined);
      applyHostMessage(store, stream, init({ conversation: conversation('c1', [user('u1', 'secret question')]) }));
      applyHostMessage(store, stream, { type: 'chat/mode', mode: 'chat' });
      actions.setDraft('draft text');
      assert.equal(actions.submit('  hello  '), true);
      actions.submit('/agent review topic=x level=low');
      actions.submit('/history');
      assert.deepEqual(host.posted, [
        { type: 'chat/send', text: 'hello' },
        { type: 'promptRun/start', promptId: 'review', inputs: { topic: 'x', notes: 'line one', path: 'src', depth: 2, strict: true, level: 'low' } },
      ]);
      const saved = host.getState();
      assert.ok(!JSON.stringify(saved).includes('secret question'), 'no conversation content in webview state');
      assert.deepEqual(restoreUi(host).panel, 'history');
    });

    it('path completion asks the host once per pause in typing, and drops replies to older requests', async () => {
      const host = new FakeHostApi();
      const store = new Store();
      const stream = new StreamBuffer(store, () => undefined);
      const actions = new Actions(host, store);
      applyHostMessage(store, stream, init());
      actions.agent.pick('review');
      for (const prefix of ['s', 'sr', 'src']) {
        actions.agent.setValue('path', prefix);
        actions.agent.suggestPath('path', prefix);
      }
      await new Promise((resolve) => setTimeout(resolve, SUGGEST_DELAY_MS + 50));
      const requests = host.ofType('path/suggest');
      assert.deepEqual(
        requests.map((r) => r.prefix),
        ['src'],
      );
      receiveHostMessage(actions, store, stream, { type: 'path/suggestions', requestId: 'older', items: ['x'] });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(store.current.form?.suggestions, undefined);
      receiveHostMessage(actions, store, stream, { type: 'path/suggestions', requestId: requests[0].requestId, items: ['src/'] });
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(store.current.form?.suggestions, { field: 'path', items: ['src/'] });
    });
  });
});
