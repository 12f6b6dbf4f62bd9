import { strict as assert } from 'node:assert';
import type { HostToWebview } from '../../src/shared/protocol';
import { md } from '../../webview-ui/src/markdownParser';
import { assistant, conversation, HEAVY_ANSWERS, init, user } from './support/builders';
import { useWebview } from './support/webviewPage';

const MARKDOWN = 'cw-message[data-id=a2] .markdown';

/**
 * Page-side probe on the streaming answer: how many distinct `selector` elements were added and
 * removed. Distinct, because records arrive after the fact: a run added with blocks put into it in
 * the same frame holds them when its record is read, and they have records of their own.
 */
const WATCH = (selector: string) => `(() => {
  const body = document.querySelector('cw-app').shadowRoot.querySelector('cw-message-list').shadowRoot
    .querySelector('cw-message[data-id=a2]').shadowRoot.querySelector('.markdown');
  const added = new Set();
  const removed = new Set();
  const collect = (nodes, into) => {
    for (const node of nodes) {
      if (node.nodeType !== 1) continue;
      if (node.matches(${JSON.stringify(selector)})) into.add(node);
      for (const inner of node.querySelectorAll(${JSON.stringify(selector)})) into.add(inner);
    }
  };
  const probe = (window.__probe = { added: 0, removed: 0 });
  new MutationObserver((records) => {
    for (const r of records) {
      collect(r.addedNodes, added);
      collect(r.removedNodes, removed);
    }
    probe.added = added.size;
    probe.removed = removed.size;
  }).observe(body, { childList: true, subtree: true });
})()`;

/** Lit's part markers are comments; everything else must match. */
const withoutComments = (html: string) => html.replace(/<!--[^]*?-->/g, '');

describe('webview: heavy Markdown streamed in small chunks', function () {
  this.timeout(120_000);
  const { view } = useWebview();
  const page = () => view().page;
  const frame = () => page().evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');

  /** Streams `text` as a model does (4-character chunks, a burst per frame); tags the first `selector` element a quarter of the way. */
  async function stream(text: string, selector: string): Promise<void> {
    const v = view();
    await v.send(init({ conversation: conversation('c1', [user('u1', 'Explain')]) }));
    await v.send({ type: 'chat/started', conversationId: 'c1', user: user('u2', 'Go on'), assistant: assistant('a2', '', { status: 'streaming' }) });
    await page().locator(MARKDOWN).waitFor({ state: 'attached' });
    await page().evaluate(WATCH(selector));
    const chunks = text.match(/[^]{1,4}/g) ?? [];
    for (let i = 0; i < chunks.length; i += 40) {
      await v.send(...chunks.slice(i, i + 40).map((chunk): HostToWebview => ({ type: 'chat/chunk', messageId: 'a2', text: chunk })));
      await frame();
      if (i === 40 * Math.floor(chunks.length / 160)) {
        const tagged = await page()
          .locator(MARKDOWN)
          .evaluate((body, s) => ((globalThis as unknown as { __first: unknown }).__first = body.querySelector(s)) !== null, selector);
        assert.ok(tagged, `a ${selector} was shown a quarter of the way`);
      }
    }
    await v.send({ type: 'chat/done', message: assistant('a2', text) });
    await page().locator('cw-message[data-id=a2] .answer-actions').waitFor();
  }

  /**
   * The answer's DOM against markdown-it rendering the whole text at once, parsed by the same page.
   * What the app adds around the Markdown is taken away first: the runs that group its blocks
   * (unwrapped) and the code blocks' toolbars.
   */
  async function assertSameAsRenderedOnce(text: string): Promise<void> {
    const [actual, expected, runs] = await page()
      .locator(MARKDOWN)
      .evaluate((body, html) => {
        const template = body.ownerDocument.createElement('template');
        template.innerHTML = html;
        const copy = body.cloneNode(true) as typeof body;
        for (const bar of copy.querySelectorAll('cw-code-block > .code-bar')) bar.remove();
        const runs = [...copy.children].filter((child) => child.matches('div.md-run'));
        for (const run of runs) run.replaceWith(...run.childNodes);
        return [copy.innerHTML, template.innerHTML, runs.length];
      }, md.render(text));
    assert.ok(Number(runs) >= 1, 'the blocks are shown in runs');
    assert.equal(
      await page()
        .locator(MARKDOWN)
        .evaluate((body) => [...body.children].every((child) => child.matches('div.md-run'))),
      true,
      'every block is in a run',
    );
    assert.equal(withoutComments(String(actual)), withoutComments(String(expected)));
  }

  /** Whether the element tagged a quarter of the way is still the first `selector` element, the same node. */
  const firstIsTheSameNode = (selector: string) =>
    page()
      .locator(MARKDOWN)
      .evaluate((body, s) => (globalThis as unknown as { __first: unknown }).__first === body.querySelector(s), selector);

  it('400 code fences: each code block is created once and kept (with its buttons), and the end equals rendering once', async () => {
    const text = HEAVY_ANSWERS['code fences'](400);
    await stream(text, 'cw-code-block');
    const blocks = page().locator(`${MARKDOWN} cw-code-block`);
    assert.equal(await blocks.count(), 400);
    assert.equal(await firstIsTheSameNode('cw-code-block'), true, 'the first code block is the same element');
    assert.deepEqual(await page().evaluate('window.__probe'), { added: 400, removed: 0 }, 'no code block was removed or created twice');
    assert.equal(await blocks.nth(399).locator('button[data-action=copy]').count(), 1);
    assert.equal(await blocks.nth(399).locator('code').textContent(), 'npm test -- --grep case-399\n');
    await assertSameAsRenderedOnce(text);
  });

  it('300 headings, no blank lines between: finished headings keep their nodes, and the end equals rendering once', async () => {
    const text = HEAVY_ANSWERS.headings(300);
    await stream(text, 'h2');
    assert.equal(await page().locator(`${MARKDOWN} h2`).count(), 300);
    assert.equal(await firstIsTheSameNode('h2'), true, 'the first heading is the same element');
    assert.deepEqual(await page().evaluate('window.__probe'), { added: 300, removed: 0 });
    assert.equal(await page().locator(`${MARKDOWN} h2`).nth(299).textContent(), 'Section 299');
    await assertSameAsRenderedOnce(text);
  });

  it('a code block keeps its toolbar, the same node, while its fence streams over many frames', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `echo line ${i}`);
    const text = `Run this:\n\n\`\`\`sh\n${lines.join('\n')}\n\`\`\`\n\nDone.\n`;
    // A quarter of the way, the fence is still open: its toolbar is tagged then.
    await stream(text, 'cw-code-block > .code-bar');
    const bars = page().locator(`${MARKDOWN} cw-code-block .code-bar`);
    assert.equal(await bars.count(), 1, 'one toolbar');
    assert.equal(await firstIsTheSameNode('cw-code-block > .code-bar'), true, 'the toolbar shown first is still the one shown');
    assert.deepEqual(await page().evaluate('window.__probe'), { added: 1, removed: 0 }, 'no toolbar was removed or created twice');
    assert.equal(await bars.locator('button[data-action=copy]').count(), 1);
    assert.equal(await bars.locator('.lang').textContent(), 'sh');
    assert.equal(await bars.evaluate((bar) => bar.parentElement?.firstElementChild === bar), true, 'the toolbar comes before the code');
    assert.equal(await page().locator(`${MARKDOWN} cw-code-block code`).textContent(), `${lines.join('\n')}\n`);
    await assertSameAsRenderedOnce(text);
  });

  it('an answer streamed in runs of blocks lays out exactly as the same answer reopened in one piece', async () => {
    // Runs hold 24 blocks and stop margins collapsing across them; every kind of block meets every
    // other at a run's edge: heading after heading (23|24), a loose list after a heading (47|48),
    // a paragraph after a heading (71|72), and lists, quotes and fences nested in each other.
    const kinds = [
      (i: number) => `## Heading ${i}`,
      (i: number) => `Paragraph ${i}.`,
      () => '```ts\nconst x = 1;\n```',
      (i: number) => `- loose ${i}\n\n- list\n  - nested\n  - tight`,
      (i: number) => `> quote ${i}\n>\n> second paragraph`,
      (i: number) => `${100 + i}. \`\`\`sh\n     ls ${i}\n     \`\`\``,
    ];
    const blocks = Array.from({ length: 96 }, (_, i) =>
      [23, 24, 47, 71].includes(i) ? kinds[0](i) : i === 48 ? kinds[3](i) : i === 72 ? kinds[1](i) : kinds[i % 6](i),
    );
    const text = `${blocks.join('\n\n')}\n`;
    await page().setViewportSize({ width: 420, height: 30_000 }); // every run on screen, so none is skipped
    await stream(text, 'h2');
    const streamed = await elementTops('a2');
    await view().send({ type: 'conversation/load', conversation: conversation('c2', [user('u9', 'Again'), assistant('a9', text)]) });
    await page().locator('cw-message[data-id=a9] .answer-actions').waitFor();
    const reopened = await elementTops('a9');
    assert.equal(streamed.runs, 4);
    assert.equal(reopened.runs, 1);
    assert.ok(streamed.tops.length > 300, `${streamed.tops.length} elements compared`);
    assert.deepEqual(streamed.tops, reopened.tops);
  });

  /**
   * Where each element of answer `id` (runs aside) starts, in px from the answer's top, and how many
   * runs hold them. Read once nothing in the answer is skipped by `content-visibility: auto`: Chromium sizes the
   * nested layers (the message, its runs, the code blocks of an answer in one run) one per frame, and until then
   * a layer has its placeholder size even on screen. One frame was not always enough: a reopened answer's code
   * block was once measured at its 60 px placeholder, which moved everything under it (1 CI run in 5).
   */
  const elementTops = async (id: string) => {
    const body = page().locator(`cw-message[data-id=${id}] .markdown`);
    for (let frames = 0; ; frames++) {
      const sized = await body.evaluate((answer) =>
        [...answer.querySelectorAll('.md-run > *, cw-code-block > *')].every((e) => e.checkVisibility({ contentVisibilityAuto: true })),
      );
      if (sized) break;
      assert.ok(frames < 20, `answer ${id} is still skipped by content-visibility after 20 frames`);
      await frame();
    }
    return body.evaluate((body) => {
      const top = body.getBoundingClientRect().top;
      const shown = [...body.querySelectorAll('*')].filter((e) => !e.matches('.md-run'));
      return { runs: body.querySelectorAll('.md-run').length, tops: shown.map((e) => `${e.localName} ${Math.round(e.getBoundingClientRect().top - top)}`) };
    });
  };

  it('300 lines of emphasis in one paragraph: the first emphasis keeps its node, and the end equals rendering once', async () => {
    const text = HEAVY_ANSWERS.emphasis(300);
    await stream(text, 'strong');
    assert.equal(await page().locator(`${MARKDOWN} p`).count(), 1);
    assert.equal(await page().locator(`${MARKDOWN} strong`).count(), 300);
    assert.equal(await page().locator(`${MARKDOWN} em`).count(), 300);
    assert.equal(await firstIsTheSameNode('strong'), true, 'the first emphasis is the same element');
    await assertSameAsRenderedOnce(text);
  });
});
