import { strict as assert } from 'node:assert';
import { md } from '../../webview-ui/src/markdownParser';
import type { MarkdownWork } from '../../webview-ui/src/markdownWork';
import { assistant, conversation, init, user } from './support/builders';
import { HOSTILE_ANSWERS } from './support/hostileAnswers';
import { useWebview } from './support/webviewPage';

const MARKDOWN = 'cw-message[data-id=a2] .markdown';
/** As the issue measured: the answer in 20 chunks. Rendering each chunk's open block again in full costs about 10× rendering once. */
const CHUNKS = 20;
/** Sizes that keep each test to seconds; the bench (bench/hostileMarkdownBench.ts) uses the issue's. */
const SIZES: Record<string, number> = {
  'link reference definitions used once each': 1_500,
  'nested emphasis openers': 20_000,
  'emphasis openers, one per line': 15_000,
  'wide table': 3_000,
  'nested image openers': 20_000,
  'strong between letters': 15_000,
};

/** Lit's part markers are comments, and the sanitiser adds `rel` to links (markdown.ts); everything else must match. */
const comparable = (html: string) => html.replace(/<!--[^]*?-->/g, '').replaceAll(' rel="noopener noreferrer"', '');

describe('webview: answers built to be costly stream at about the cost of rendering them once', function () {
  this.timeout(180_000);
  const { view } = useWebview();
  const page = () => view().page;

  /**
   * Streams `text` in `chunks` chunks, each rendered in a frame of its own (past the view's 50 ms
   * paint throttle), then the done message; returns the Markdown work the page counted
   * (`markdownWork.ts`), the done render included.
   */
  async function streamCountingWork(text: string, chunks: number): Promise<MarkdownWork> {
    const v = view();
    await v.load();
    await v.send(init({ conversation: conversation('c1', [user('u1', 'Explain')]) }));
    await v.send({ type: 'chat/started', conversationId: 'c1', user: user('u2', 'Go on'), assistant: assistant('a2', '', { status: 'streaming' }) });
    await page().locator(MARKDOWN).waitFor({ state: 'attached' });
    await page().evaluate('window.__cwMarkdownWork = { renders: 0, rendered: 0, parsed: 0 }');
    const size = Math.ceil(text.length / chunks);
    for (let i = 0; i < chunks; i++) {
      await v.send({ type: 'chat/chunk', messageId: 'a2', text: text.slice(i * size, (i + 1) * size) });
      await page().evaluate('new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => setTimeout(resolve, 0)), 60))');
    }
    await v.send({ type: 'chat/done', message: assistant('a2', text) });
    await page().locator('cw-message[data-id=a2] .answer-actions').waitFor();
    return (await page().evaluate('window.__cwMarkdownWork')) as MarkdownWork;
  }

  /** The answer's DOM (its runs unwrapped) against markdown-it rendering the whole text at once, parsed by the same page. */
  async function assertSameAsRenderedOnce(text: string): Promise<void> {
    const [actual, expected] = await page()
      .locator(MARKDOWN)
      .evaluate((body, html) => {
        const template = body.ownerDocument.createElement('template');
        template.innerHTML = html;
        const copy = body.cloneNode(true) as typeof body;
        for (const run of [...copy.children].filter((child) => child.matches('div.md-run'))) run.replaceWith(...run.childNodes);
        return [copy.innerHTML, template.innerHTML];
      }, md.render(text));
    assert.ok(comparable(expected).length > text.length / 2, 'the answer renders to something');
    assert.equal(comparable(actual), comparable(expected));
  }

  for (const [shape, { text: make }] of Object.entries(HOSTILE_ANSWERS)) {
    it(`${shape}: 20 chunks cost at most 4× the Markdown work of one, and the end equals rendering once`, async () => {
      const text = make(SIZES[shape]);
      const once = await streamCountingWork(text, 1);
      assert.ok(once.rendered >= text.length, `rendering once renders the whole text (${once.rendered} of ${text.length} characters)`);
      const streamed = await streamCountingWork(text, CHUNKS);
      const ratio = (kind: keyof MarkdownWork) => `${streamed[kind]} against ${once[kind]} once`;
      assert.ok(streamed.rendered <= 4 * once.rendered, `characters rendered: ${ratio('rendered')}`);
      assert.ok(streamed.parsed <= 4 * once.parsed, `characters parsed: ${ratio('parsed')}`);
      assert.ok(streamed.renders <= 2 * once.renders + 2 * CHUNKS, `renders: ${ratio('renders')}`);
      await assertSameAsRenderedOnce(text);
    });
  }

  it('a definition arriving at the end renders again only the paragraph that uses it', async () => {
    const uses = Array.from({ length: 200 }, (_, i) => `Item ${i} links to [ref ${i}].\n\n`).join('');
    const text = `${uses}Closing words.\n\n[ref 7]: https://example.com/7\n`;
    const v = view();
    await v.send(init({ conversation: conversation('c1', [user('u1', 'Explain')]) }));
    await v.send({ type: 'chat/started', conversationId: 'c1', user: user('u2', 'Go on'), assistant: assistant('a2', '', { status: 'streaming' }) });
    await v.send({ type: 'chat/chunk', messageId: 'a2', text: text.slice(0, uses.length + 20) });
    await page().locator(`${MARKDOWN} p`).nth(200).waitFor();
    await page().evaluate('window.__cwMarkdownWork = { renders: 0, rendered: 0, parsed: 0 }');
    await v.send({ type: 'chat/chunk', messageId: 'a2', text: text.slice(uses.length + 20) });
    await page().locator(`${MARKDOWN} a[href="https://example.com/7"]`).waitFor();
    const work = (await page().evaluate('window.__cwMarkdownWork')) as MarkdownWork;
    // The paragraph with [ref 7], the definition's block and the closing paragraph (still open before): 200 paragraphs have a `[`.
    assert.ok(work.renders <= 3, `${work.renders} renders`);
    await v.send({ type: 'chat/done', message: assistant('a2', text) });
    await page().locator('cw-message[data-id=a2] .answer-actions').waitFor();
    await assertSameAsRenderedOnce(text);
  });
});
