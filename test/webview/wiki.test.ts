import { strict as assert } from 'node:assert';
import type { HostToWiki, WikiPageEntry, WikiToHost } from '../../src/shared/wikiProtocol';
import { eventually, useWebview, type PageGlobals } from './support/webviewPage';

const PAGES: WikiPageEntry[] = [
  { path: 'modules/src-core-engine.md', title: 'Engine', stale: true },
  { path: 'index.md', title: 'Overview' },
  { path: 'modules/src-core-store.md', title: 'Store' },
];

const INDEX = [
  '<!-- codewiki:notes:start -->',
  '# CodeWiki',
  '',
  'The [engine](modules/src-core-engine.md) runs workflows <!-- inline marker --> from [the runner](../src/core/engine/runner.ts#L12).',
  'Docs: [site](https://example.com/docs).',
  '<!-- codewiki:notes:end -->',
  '',
  '```mermaid',
  'graph LR',
  '  Engine[Workflow engine] --> Store[(History store)]',
  '  Engine --> Tools[Tool registry]',
  '```',
  '',
  'Text after the diagram.',
  '',
  '```html',
  '<!-- a comment in code stays -->',
  '```',
].join('\n');

/** Everything a page could use to run code, fetch or navigate, each set to raise a flag if it ever runs. */
const HOSTILE = [
  '# Hostile',
  '<script>window.__pwned = 1</script>',
  '<img src=http://127.0.0.2:9/track.png onerror="window.__pwned = 2">',
  '[x](javascript:alert(1)) and [y](javascript:window.__pwned=3)',
  '![t](https://evil.example/a.png)',
  '',
  '```mermaid',
  '%%{init: {"securityLevel":"loose", "htmlLabels": true, "flowchart": {"htmlLabels": true}}}%%',
  'graph LR',
  '  A["<img src=x onerror=window.__pwned=4>"] --> B[Second node]',
  '  B --> C[Third node]',
  '  click A href "javascript:window.__pwned=5"',
  '  click B call alert()',
  '  click C "https://evil.example/c" "tip"',
  '```',
  '',
  '```mermaid',
  '---',
  'config:',
  '  securityLevel: loose',
  '  htmlLabels: true',
  '---',
  'graph TD',
  '  X[Front matter] --> Y[Last node]',
  '  click X call alert()',
  '```',
  '',
  // A url() in a diagram's CSS would be a request. Mermaid's style and classDef statements cannot spell one; theme
  // CSS can, and a directive may not set it (a secure key, mermaidDiagrams.ts); diagramCss.ts scrubs what is left.
  '```mermaid',
  '%%{init: {"themeCSS": ".node rect { fill: url(http://127.0.0.2:9/theme.png); }"}}%%',
  'graph LR',
  '  P[Themed node] --> Q[Other node]',
  '```',
].join('\n');

/**
 * What the page's DOM, shadow roots included, holds that could run code, fetch or navigate. A
 * string, so the test runner's transform adds nothing the page does not have.
 */
const AUDIT_RENDERED_DOM = `(origin) => {
  const all = [];
  const stack = [document];
  while (stack.length) {
    for (const element of stack.pop().querySelectorAll('*')) {
      all.push(element);
      if (element.shadowRoot) stack.push(element.shadowRoot);
    }
  }
  const ownScript = (e) => e.localName === 'script' && e.src === origin + '/wiki.js';
  return {
    scripts: all.filter((e) => e.localName === 'script' && !ownScript(e)).length,
    handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => e.localName + '[' + a.name + ']')),
    hrefs: all.filter((e) => e.localName !== 'link').flatMap((e) => ['href', 'xlink:href'].map((name) => e.getAttribute(name)).filter((href) => href !== null)),
    foreignObjects: all.filter((e) => e.localName.toLowerCase() === 'foreignobject').length,
    images: all.filter((e) => e.localName === 'img' || e.localName === 'image').map((e) => e.getAttribute('src') || e.getAttribute('href')),
    styleElements: all.filter((e) => e.localName === 'style').length,
    remoteStyles: all.filter((e) => /url\\((?!["']?#)/i.test(e.getAttribute('style') || '')).length,
  };
}`;

/** Whether a diagram's text shows `label`: Mermaid wraps a long label into rows, with no space between them in the text. */
const drawsLabel = (svgText: string, label: string) => svgText.replace(/\s+/g, '').includes(label.replace(/\s+/g, ''));

/**
 * The wiki page in Chromium, fed by the test as the extension's panel would feed it: pages,
 * Mermaid diagrams drawn in the page, links that only ask the host, and the generation controls.
 */
describe('webview: wiki', function () {
  this.timeout(40_000);
  const { view } = useWebview({ page: 'wiki', viewport: { width: 1100, height: 900 } });
  const page = () => view().page;
  const wiki = (selector: string) => page().locator(`cw-wiki ${selector}`);

  const send = (...messages: HostToWiki[]) =>
    page().evaluate((list) => {
      for (const message of list) (globalThis as unknown as PageGlobals).postMessage(message, '*');
    }, messages);
  const posted = async () => (await page().evaluate(() => (globalThis as unknown as PageGlobals).__posted)) as unknown as WikiToHost[];
  const lastPosted = <T extends WikiToHost['type']>(type: T) =>
    eventually(async () => {
      const found = (await posted()).filter((m): m is Extract<WikiToHost, { type: T }> => m.type === type);
      assert.ok(found.length, `posted ${type}; posted: ${JSON.stringify(await posted())}`);
      return found[found.length - 1]!;
    });
  /**
   * Mermaid's own sanitiser parses a label's HTML (`<img onerror=…>`) with DOMPurify. Chromium checks
   * the page's CSP as soon as an inline handler is parsed, even in DOMPurify's inert document, and
   * reports it refused. That report, and only that, is expected here: it is the CSP holding, not a leak.
   */
  const acceptRefusedHandlers = async () => {
    const violations = await page().evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations.splice(0));
    for (const violation of violations) assert.match(violation, /^script-src-attr /, 'only inline handlers were refused');
    const errors = view().errors;
    for (let i = errors.length - 1; i >= 0; i--) if (/^console: Executing inline event handler violates/.test(errors[i])) errors.splice(i, 1);
  };
  const showIndex = (markdown = INDEX) => send({ type: 'wiki/state', pages: PAGES, current: { path: 'index.md', markdown } });

  it('shows the pages (index first, stale marked), the page without its comments, and its diagram drawn as SVG', async () => {
    await showIndex();
    const article = wiki('article.page-body');
    await eventually(async () => assert.match(await article.innerText(), /The engine runs workflows\s+from the runner\./));
    const text = await article.innerText();
    assert.doesNotMatch(text, /codewiki:notes|inline marker/, 'marker comments are not shown');
    assert.match(text, /<!-- a comment in code stays -->/, 'a comment inside a code block is code');

    assert.deepEqual(await wiki('.page-entry').evaluateAll((entries) => entries.map((e) => e.getAttribute('data-path'))), [
      'index.md',
      'modules/src-core-engine.md',
      'modules/src-core-store.md',
    ]);
    assert.equal(await wiki('.page-entry[aria-current=page]').getAttribute('data-path'), 'index.md');
    assert.equal(await wiki('.page-entry[data-path="modules/src-core-engine.md"] .stale').innerText(), 'stale');
    assert.equal(await wiki('.stale').count(), 1);

    const svg = wiki('article cw-wiki-diagram svg');
    await svg.waitFor();
    const labels = (await svg.textContent()) ?? '';
    for (const label of ['Workflow engine', 'History store', 'Tool registry']) assert.ok(drawsLabel(labels, label), `the diagram shows ${label}: ${labels}`);
    assert.equal(await wiki('article .diagram-source').count(), 0, 'the source block was replaced');
    // Mermaid's stylesheet reached the diagram (adopted, not an inline <style>): a node is not SVG's default black.
    const nodeFill = () =>
      svg
        .locator('.node rect, .node path')
        .first()
        .evaluate((shape) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(shape).fill);
    const lightFill = await nodeFill();
    assert.notEqual(lightFill, 'rgb(0, 0, 0)');
    assert.equal(await svg.locator('style').count(), 0);
    assert.match(text, /Text after the diagram\./);

    // VS Code switches the body's theme class: the diagram is drawn again in the dark theme's colours.
    await page().evaluate(() =>
      (globalThis as unknown as { document: { body: { classList: { add(c: string): void } } } }).document.body.classList.add('vscode-dark'),
    );
    await eventually(async () => assert.notEqual(await nodeFill(), lightFill));

    await wiki('.page-entry[data-path="modules/src-core-store.md"]').click();
    assert.deepEqual(await lastPosted('wiki/showPage'), { type: 'wiki/showPage', path: 'modules/src-core-store.md' });
  });

  it('a click on a link asks the host with the href as written, and the page never navigates', async () => {
    await showIndex();
    const url = page().url();
    const link = (name: string) => wiki('article a').filter({ hasText: name });
    await link('the runner').click();
    assert.deepEqual(await lastPosted('wiki/openLink'), { type: 'wiki/openLink', page: 'index.md', href: '../src/core/engine/runner.ts#L12' });
    await link('engine').first().click();
    assert.deepEqual(await lastPosted('wiki/openLink'), { type: 'wiki/openLink', page: 'index.md', href: 'modules/src-core-engine.md' });
    // An external link is shown and reported (the host ignores it), never followed.
    await link('site').click();
    assert.deepEqual(await lastPosted('wiki/openLink'), { type: 'wiki/openLink', page: 'index.md', href: 'https://example.com/docs' });
    await link('site').focus();
    await page().keyboard.press('Enter');
    await eventually(async () => assert.equal((await posted()).filter((m) => m.type === 'wiki/openLink').length, 4));
    assert.equal(page().url(), url);
    assert.equal(await wiki('article a[href]').count(), 0, 'no link carries an href the webview could follow');
    assert.deepEqual(
      view().requests.filter((request) => request.includes('example.com')),
      [],
    );
  });

  it('hostile Markdown and Mermaid stay inert: no script runs, nothing is fetched, no link or handler survives', async () => {
    await page().evaluate(() => {
      const flags = globalThis as unknown as { alert: () => void; __pwned?: unknown };
      flags.alert = () => (flags.__pwned = 'alert');
    });
    await send({ type: 'wiki/state', pages: PAGES, current: { path: 'index.md', markdown: HOSTILE } });
    const diagrams = wiki('article cw-wiki-diagram svg');
    await eventually(async () => assert.equal(await diagrams.count(), 3, (await wiki('article .diagram-source.failed').allInnerTexts()).join('\n')), 15_000);
    const labels = (await diagrams.allTextContents()).join(' ');
    // Had a directive turned HTML labels on, the labels would be HTML in a foreignObject, which is dropped.
    for (const label of ['Second node', 'Third node', 'Front matter', 'Last node', 'Themed node'])
      assert.ok(drawsLabel(labels, label), `${label} is drawn as SVG text: ${labels}`);
    const text = await wiki('article').innerText();
    assert.match(text, /<script>window.__pwned = 1<\/script>/, 'raw HTML is shown as text');
    assert.match(text, /\[x\]\(javascript:alert\(1\)\)/, 'a javascript: link is not a link');

    // Clicking every node: a `click … call` bound by a loosened security level would run now.
    for (const node of await page().locator('cw-wiki-diagram .node').all()) await node.click({ force: true });
    await page().waitForTimeout(200);
    assert.equal(await page().evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned), undefined);

    const found = await page().evaluate(`(${AUDIT_RENDERED_DOM})(${JSON.stringify(view().origin)})`);
    assert.deepEqual(found, { scripts: 0, handlers: [], hrefs: [], foreignObjects: 0, images: [], styleElements: 0, remoteStyles: 0 });
    assert.deepEqual(
      view().requests.filter((url) => !url.startsWith(`${view().origin}/`)),
      [],
      'no request left the page',
    );
    await acceptRefusedHandlers();
  });

  it('a diagram that does not parse keeps its source with a line saying so, and the next one is still drawn', async () => {
    const broken = 'graph LR\n  A[unclosed --> B';
    await showIndex(['# Broken', '', '```mermaid', broken, '```', '', '```mermaid', 'graph TD', '  P[After the broken one] --> Q[End]', '```'].join('\n'));
    const failed = wiki('article .diagram-source.failed');
    await failed.waitFor();
    assert.match(await failed.locator('.diagram-error').innerText(), /^Diagram not drawn: \S/);
    assert.equal(await failed.locator('code').textContent(), `${broken}\n`);
    await eventually(async () => assert.ok(drawsLabel((await wiki('article cw-wiki-diagram svg').textContent()) ?? '', 'After the broken one')));
  });

  it('while generating: "label (done/total)", a progress bar and Stop; afterwards Generate', async () => {
    await send({ type: 'wiki/state', pages: [], notice: 'No wiki yet: Generate Wiki builds it' });
    assert.equal(await wiki('.notice').innerText(), 'No wiki yet: Generate Wiki builds it');
    assert.match(await wiki('button.generate').innerText(), /^\W*Generate$/);

    await send({ type: 'wiki/state', pages: PAGES, generating: { done: 3, total: 10, label: 'Writing modules/src-core-engine.md' } });
    assert.equal(await wiki('.progress-label').innerText(), 'Writing modules/src-core-engine.md (3/10)');
    assert.deepEqual(await wiki('progress').evaluate((bar) => [bar.getAttribute('value'), bar.getAttribute('max')]), ['3', '10']);
    assert.equal(await wiki('button.generate').count(), 0, 'no second generation while one runs');
    await wiki('button.stop').click();
    assert.deepEqual(await lastPosted('wiki/stop'), { type: 'wiki/stop' });

    await send({ type: 'wiki/state', pages: PAGES, generating: null, current: { path: 'index.md', markdown: '# Done' } });
    // The element renders on its next update: wait for it (it flaked once on a loaded machine) rather than race it.
    await eventually(async () => assert.equal(await wiki('button.stop').count(), 0));
    assert.equal(await wiki('.progress').count(), 0);
    await wiki('button.generate').click();
    assert.deepEqual(await lastPosted('wiki/generate'), { type: 'wiki/generate' });
    assert.match(await wiki('button.generate').innerText(), /Regenerate/);
  });
});
