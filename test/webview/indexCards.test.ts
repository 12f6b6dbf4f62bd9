import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { agentTurn } from './support/agentBuilders';
import { conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** What the code index found, as the user sees it in the chat (real Chromium, the built webview). */
describe('webview: the code index in an agent turn', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const turn = () => page().locator('cw-message[data-id=t1]');
  const started: HostToWebview = {
    type: 'agentTurn/started',
    conversationId: 'c1',
    user: user('u2', 'Where is ReactiveElement defined?'),
    turn: agentTurn('t1', { status: 'streaming', answer: '', toolCalls: [], createdAt: new Date().toISOString() }),
  };

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'hi')]) }), { type: 'chat/mode', mode: 'agent' });
  });

  it('shows indexing progress, then the definition card before any answer; the card opens the file at the line', async () => {
    const v = view();
    await v.send(started, { type: 'agentTurn/indexWait', turnId: 't1', indexedFiles: 1_234, totalFiles: 4_400 });
    await eventually(async () => assert.equal((await turn().locator('.index-wait').textContent())?.trim(), 'Indexing the workspace… 1,234 of 4,400 files'));
    await v.send(
      {
        type: 'agentTurn/definitions',
        turnId: 't1',
        definitions: [
          {
            name: 'ReactiveElement',
            kind: 'class',
            path: 'packages/reactive-element/src/reactive-element.ts',
            line: 123,
            signature: 'export abstract class ReactiveElement extends HTMLElement',
            doc: 'Base element class which manages element properties.',
          },
          { name: 'uv_size', kind: 'function', path: 'include/uv.h', line: 9, signature: 'size_t uv_size(void);', declaration: true },
        ],
      },
      {
        type: 'agentTurn/indexContext',
        turnId: 't1',
        context: { files: ['packages/reactive-element/src/reactive-element.ts', 'packages/lit-element/src/lit-element.ts'], tokens: 412 },
      },
    );
    const card = turn().locator('.definition-card').first();
    await card.waitFor();
    assert.equal(await turn().locator('.index-wait').count(), 0, 'the progress line is gone once the index answered');
    assert.equal(
      (await card.locator('.definition-link').textContent())?.replace(/\s+/g, ' ').trim(),
      'ReactiveElement class — packages/reactive-element/src/reactive-element.ts:123',
    );
    assert.equal(await card.locator('.signature').textContent(), 'export abstract class ReactiveElement extends HTMLElement');
    assert.equal(await card.locator('.doc').textContent(), 'Base element class which manages element properties.');
    assert.equal(
      (await turn().locator('.definition-card').nth(1).locator('.definition-link').textContent())?.replace(/\s+/g, ' ').trim(),
      'uv_size declared function — include/uv.h:9',
      'a C function only declared says so',
    );
    assert.equal((await turn().locator('.index-context').textContent())?.trim(), 'Code index: 2 files sent with the question (412 tokens)');
    assert.equal(await turn().locator('.answer').textContent(), '', 'the card is there before the model has said anything');
    await card.locator('.definition-link').click();
    assert.deepEqual(await v.waitForPosted('file/open'), { type: 'file/open', path: 'packages/reactive-element/src/reactive-element.ts', line: 123 });
  });

  it('a reopened conversation shows the saved cards; a hostile name or signature stays text', async () => {
    const saved = agentTurn('t1', {
      answer: 'It is in reactive-element.ts.',
      definitions: [{ name: '<img src=x onerror="window.__pwned=1">', kind: 'class', path: 'a.ts', line: 1, signature: '<script>window.__pwned=2</script>' }],
      indexContext: { files: ['a.ts'], tokens: 20, partial: true },
    });
    await view().send({ type: 'conversation/load', conversation: conversation('c1', [user('u1', 'q'), saved]) });
    const card = turn().locator('.definition-card');
    await card.waitFor();
    assert.equal(await card.locator('.signature').textContent(), '<script>window.__pwned=2</script>');
    assert.equal(await turn().locator('.index-found img, .index-found script').count(), 0);
    assert.match((await turn().locator('.index-context').textContent()) ?? '', /from a partial index/);
    assert.equal(await page().evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  });

  it('#codebase becomes a chip and goes with the message as a codebase attachment', async () => {
    const v = view();
    const composer = page().locator('cw-composer textarea');
    await composer.fill('Where is the lock? #codebase ');
    await composer.dispatchEvent('input');
    await eventually(async () => assert.equal(await page().locator('cw-context-chips .chip').getAttribute('data-chip'), '#codebase'));
    assert.equal((await page().locator('cw-context-chips .chip .label').textContent())?.trim(), 'Codebase');
    await composer.press('Enter');
    const sent = await v.waitForPosted('agent/send');
    assert.deepEqual(sent.attachments, [{ kind: 'codebase' }]);
    assert.equal(sent.text.trim(), 'Where is the lock?');
  });
});
