import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { agentRun, assistant, conversation, init, step, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** Page-side probe: marks the nodes that must not change and watches them while chunks stream. */
const WATCH_OTHERS = `(() => {
  const list = document.querySelector('cw-app').shadowRoot.querySelector('cw-message-list');
  const others = [...list.shadowRoot.querySelectorAll('cw-message')].filter((m) => m.dataset.id !== 'a2');
  window.__probe = { mutations: 0, others: others.map((m) => ({ el: m, html: m.shadowRoot.innerHTML })) };
  const observer = new MutationObserver((records) => (window.__probe.mutations += records.length));
  observer.observe(list.shadowRoot, { subtree: true, childList: true, characterData: true, attributes: true });
  for (const m of others) observer.observe(m.shadowRoot, { subtree: true, childList: true, characterData: true, attributes: true });
  return others.length;
})()`;

const CHECK_OTHERS = `(() => {
  const list = document.querySelector('cw-app').shadowRoot.querySelector('cw-message-list');
  const now = [...list.shadowRoot.querySelectorAll('cw-message')].filter((m) => m.dataset.id !== 'a2');
  const probe = window.__probe;
  return {
    mutations: probe.mutations,
    sameNodes: now.length === probe.others.length && now.every((m, i) => m === probe.others[i].el),
    unchanged: probe.others.every((o) => o.el.shadowRoot.innerHTML === o.html),
  };
})()`;

describe('webview: streaming', function () {
  const { view } = useWebview({ countRenders: true });
  const page = () => view().page;

  const history = conversation('c1', [user('u1', 'first question'), assistant('a1', 'First **answer** with `code`.\n\n```js\nlet a = 1;\n```')]);
  const started: HostToWebview = {
    type: 'chat/started',
    conversationId: 'c1',
    user: user('u2', 'second question'),
    assistant: assistant('a2', '', { status: 'streaming' }),
  };

  beforeEach(async () => {
    await view().send(init({ conversation: history }));
    await page().locator('cw-message[data-id=a1] .markdown').waitFor();
  });

  it('a chunk re-renders only the streaming message: other messages are the same nodes, untouched, and not re-rendered', async () => {
    const v = view();
    await v.send(started);
    await page().locator('cw-message[data-id=a2]').waitFor();
    assert.equal(await page().evaluate(WATCH_OTHERS), 3);
    await v.resetRenderCounts();
    const pieces = Array.from({ length: 300 }, (_, i) => (i % 50 === 49 ? `word${i}.\n\n` : `word${i} `));
    // Bursts across several frames, as a model streams.
    for (let i = 0; i < pieces.length; i += 50) {
      await v.send(...pieces.slice(i, i + 50).map((text): HostToWebview => ({ type: 'chat/chunk', messageId: 'a2', text })));
      await page().waitForTimeout(20);
    }
    await eventually(async () => assert.match((await page().locator('cw-message[data-id=a2] .markdown').textContent()) ?? '', /word299\./));
    assert.deepEqual(await page().evaluate(CHECK_OTHERS), { mutations: 0, sameNodes: true, unchanged: true });
    const counts = await v.renderCounts();
    const rendered = Object.keys(counts);
    assert.deepEqual(
      rendered.filter((key) => !key.includes('cw-message#a2')),
      [],
      `only the streaming message re-rendered: ${JSON.stringify(counts)}`,
    );
    const own = counts['cw-app > cw-message-list > cw-message#a2'];
    assert.ok(own >= 1 && own < 300, `chunks are batched per frame (${own} renders for 300 chunks)`);
  });

  it('Stop posts chat/stop; the stopped answer is kept and marked stopped', async () => {
    const v = view();
    await v.send(started, { type: 'chat/chunk', messageId: 'a2', text: 'Partial answer' });
    const stop = page().locator('cw-composer button.stop');
    await stop.click();
    await v.waitForPosted('chat/stop');
    await v.send(
      { type: 'chat/chunk', messageId: 'a2', text: ' so far' },
      { type: 'chat/done', message: assistant('a2', 'Partial answer so far', { status: 'stopped' }) },
    );
    const a2 = page().locator('cw-message[data-id=a2]');
    await a2.locator('.badge.stopped').waitFor();
    assert.equal(await a2.locator('.markdown').textContent(), 'Partial answer so far\n');
    await page().locator('cw-composer button.send').waitFor();
    assert.equal(await stop.count(), 0);
  });

  it('a failed answer shows its error inline, and Retry posts chat/retry', async () => {
    const v = view();
    await v.send(started, {
      type: 'chat/done',
      message: assistant('a2', '', { status: 'error', error: '401 from http://127.0.0.1:11434/v1: check the API key' }),
    });
    const a2 = page().locator('cw-message[data-id=a2]');
    assert.equal((await a2.locator('.error-message').textContent())?.trim(), '401 from http://127.0.0.1:11434/v1: check the API key');
    await a2.locator('button.retry').click();
    assert.deepEqual(await v.waitForPosted('chat/retry'), { type: 'chat/retry', messageId: 'a2' });
  });

  it('Retry of a half-streamed answer shows only the new answer, not the old one beside it', async () => {
    const v = view();
    await v.send(started, { type: 'chat/chunk', messageId: 'a2', text: 'Old **partial** answer' });
    await v.send({ type: 'chat/done', message: assistant('a2', 'Old **partial** answer', { status: 'error', error: 'connection reset' }) });
    const a2 = page().locator('cw-message[data-id=a2]');
    await a2.locator('button.retry').click();
    await v.waitForPosted('chat/retry');
    await v.send(started); // the host restarts the turn with the same ids, the answer empty
    await eventually(async () => assert.equal(await a2.locator('.markdown').textContent(), ''));
    await v.send({ type: 'chat/chunk', messageId: 'a2', text: 'New answer' }, { type: 'chat/done', message: assistant('a2', 'New answer') });
    await a2.locator('.answer-actions').waitFor();
    assert.equal(await a2.locator('.markdown').textContent(), 'New answer\n');
    assert.equal(await a2.locator('.markdown strong').count(), 0, 'nothing of the old answer is left');
  });

  it('an /agent run streams live: steps change state, the answer streams, Stop cancels the run', async () => {
    const v = view();
    const run = agentRun('r1', {
      status: 'running',
      steps: [step('list', { status: 'pending', tool: 'list_files' }), step('answer', { status: 'pending', tool: 'llm' })],
    });
    await v.send({ type: 'promptRun/started', conversationId: 'c1', run });
    const r1 = page().locator('cw-message[data-id=r1]');
    const statuses = () => r1.locator('li.step').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    await eventually(async () => assert.deepEqual(await statuses(), ['pending', 'pending']));
    assert.equal(await r1.locator('.run-title').textContent(), 'Summarize a folder');
    await v.send({ type: 'promptRun/step', runId: 'r1', step: step('list', { status: 'running', tool: 'list_files' }) });
    await eventually(async () => assert.deepEqual(await statuses(), ['running', 'pending']));
    await v.send(
      { type: 'promptRun/step', runId: 'r1', step: step('list', { status: 'success', tool: 'list_files', durationMs: 35 }) },
      { type: 'promptRun/step', runId: 'r1', step: step('answer', { status: 'running', tool: 'llm' }) },
      { type: 'promptRun/chunk', runId: 'r1', text: 'The folder ' },
      { type: 'promptRun/chunk', runId: 'r1', text: 'has **two** files.' },
    );
    await eventually(async () => assert.deepEqual(await statuses(), ['success', 'running']));
    await eventually(async () => assert.equal(await r1.locator('.run-answer strong').textContent(), 'two'));
    assert.equal(await r1.locator('li.step[data-step=list] .duration').textContent(), '35 ms');
    assert.equal(await r1.locator('.run-actions').count(), 0, 'no result actions while running');
    await page().locator('cw-composer button.stop').click();
    await v.waitForPosted('chat/stop');
    await v.send({
      type: 'promptRun/done',
      run: {
        ...run,
        status: 'stopped',
        answer: 'The folder has **two** files.',
        steps: [step('list', { durationMs: 35 }), step('answer', { status: 'cancelled' })],
      },
    });
    await r1.locator('.badge.stopped').waitFor();
    await eventually(async () => assert.deepEqual(await statuses(), ['success', 'cancelled']));
    await r1.locator('.run-actions button[data-action=runlog]').click();
    assert.deepEqual(await v.waitForPosted('runLog/open'), { type: 'runLog/open', runId: 'r1' });
  });

  it('while an answer streams, the view follows it at the bottom, and a reader who scrolled up keeps their place', async () => {
    const v = view();
    await v.send(started);
    const paragraphs = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        await v.send({ type: 'chat/chunk', messageId: 'a2', text: `Paragraph ${i} has enough words to fill most of a line.\n\n` });
        await page().waitForTimeout(20);
      }
      await eventually(async () =>
        assert.match((await page().locator('cw-message[data-id=a2] .markdown').textContent()) ?? '', new RegExp(`Paragraph ${to - 1} `)),
      );
    };
    // The first paragraph wholly inside the scroller, and where it is.
    const firstShown = () =>
      page()
        .locator('cw-message-list .scroller')
        .evaluate((scroller) => {
          const box = scroller.getBoundingClientRect();
          const answer = scroller.querySelector('cw-message[data-id=a2]')!.shadowRoot!;
          const shown = [...answer.querySelectorAll('.markdown p')].filter(
            (p) => p.getBoundingClientRect().top >= box.top && p.getBoundingClientRect().bottom <= box.bottom,
          );
          return {
            first: shown[0]?.textContent?.split(' has')[0],
            top: Math.round(shown[0]?.getBoundingClientRect().top ?? -1),
            last: shown.at(-1)?.textContent?.split(' has')[0],
          };
        });
    await paragraphs(0, 60);
    await eventually(async () => assert.equal((await firstShown()).last, 'Paragraph 59', 'at the bottom, the newest paragraph is in view'));
    await page()
      .locator('cw-message-list .scroller')
      .evaluate((el) => el.scrollBy(0, -600));
    await page().waitForTimeout(50);
    const reading = await firstShown();
    assert.notEqual(reading.last, 'Paragraph 59', 'scrolled up, away from the end');
    await paragraphs(60, 90);
    assert.deepEqual(await firstShown(), reading, 'the paragraph being read has not moved while 30 more arrived below');
  });

  it('a 1,000-message conversation opens at its newest messages and loads older ones while scrolling up', async () => {
    const v = view();
    const messages = Array.from({ length: 1000 }, (_, i) => (i % 2 ? assistant(`m${i}`, `Answer **${i}**`) : user(`m${i}`, `Question ${i}`)));
    await v.send({ type: 'conversation/load', conversation: conversation('big', messages) });
    await page().locator('cw-message[data-id=m999]').waitFor();
    const rendered = await page().locator('cw-message').count();
    assert.ok(rendered < 100, `only the newest messages are rendered (${rendered})`);
    assert.equal(await page().locator('cw-message[data-id=m0]').count(), 0);
    for (let i = 0; i < 60 && (await page().locator('cw-message[data-id=m0]').count()) === 0; i++) {
      await page()
        .locator('cw-message-list .scroller')
        .evaluate((el) => el.scrollBy(0, -100_000));
      await page().waitForTimeout(30);
    }
    assert.equal(await page().locator('cw-message[data-id=m0]').count(), 1, 'scrolling up reached the first message');
  });
});
