import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPageParts } from '../../src/core/wiki/pages/pageSections';
import { safeProse } from '../../src/core/wiki/prose/safeProse';
import { WikiRepo } from './wikiFixture';
import { renderPage } from './wikiPageReading';

/** Issue 23 §5 and security.md #5, #7: what a repository or a model can put in the wiki's way. */
describe('wiki safety: symlinks, prose spellings and page markers', () => {
  let repo: WikiRepo;
  let outside: string;
  beforeEach(async () => {
    repo = await WikiRepo.open();
    outside = mkdtempSync(join(tmpdir(), 'codewiki-wiki-outside-'));
  });
  afterEach(async () => {
    await repo.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('a committed symlink .codewiki/wiki → elsewhere makes CodeWiki write, and delete, nothing there', async () => {
    writeFileSync(join(outside, 'diary.md'), 'mine');
    mkdirSync(join(outside, 'modules'));
    writeFileSync(join(outside, 'modules', 'plans.md'), 'mine too');
    mkdirSync(join(repo.root, '.codewiki'), { recursive: true });
    symlinkSync(outside, join(repo.root, '.codewiki', 'wiki'));
    await assert.rejects(repo.engine.wiki.updateStructure(), /leads outside the workspace/);
    assert.deepEqual(readdirSync(outside).sort(), ['diary.md', 'modules']);
    assert.deepEqual(readdirSync(join(outside, 'modules')), ['plans.md']);
  });

  it('a page that is a symlink is never read: read_wiki cannot be made to show another file', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'AWS_SECRET=hunter2');
    await repo.engine.wiki.updateStructure();
    const wikiDir = repo.engine.wiki.wikiDir;
    rmSync(join(wikiDir, 'index.md'));
    symlinkSync(join(outside, 'secret.txt'), join(wikiDir, 'index.md'));
    const tool = repo.engine.agentRegistry.get('read_wiki')!;
    const result = (await tool.tool.invoke({})) as { text: string };
    assert.doesNotMatch(result.text, /hunter2/);
    await repo.engine.wiki.updateStructure();
    assert.ok(existsSync(join(outside, 'secret.txt')));
    assert.doesNotMatch(readPageParts(readFileSyncText(join(outside, 'secret.txt'))).prose ?? '', /./, 'the link was replaced, not written through');
  });

  it('no spelling of a link, image, reference or HTML in prose renders as one (GitHub rules: raw HTML, autolinks)', () => {
    const hostile = [
      'See [a\nb](//evil.example/x) and ![a\nb](//evil.example/i.png).',
      '[a](\n//evil.example/y)',
      '![a\\]b](//evil.example/i.png)',
      '- [r]: //evil.example/ref.png',
      '![r]',
      '    ```',
      'after an indented fence ![x](https://evil.example/z.png)',
      '~~~',
      '```',
      '~~~',
      'after tildes <img src=https://evil.example/t.png> <https://evil.example/auto> https://evil.example/bare www.evil.example',
      '```mermaid',
      'graph LR; A-->B; click A href "javascript:alert(1)"',
      '```',
    ].join('\n');
    const rendered = renderPage(safeProse(hostile));
    assert.deepEqual(rendered.images, []);
    assert.deepEqual(rendered.html, []);
    assert.deepEqual(
      rendered.links.map((link) => link.href),
      [],
    );
    assert.doesNotMatch(safeProse(hostile), /```mermaid/, 'no diagram of the model is drawn');
  });

  it('a code span the model opens on one line and closes on the next is no way around the escaping', () => {
    // CommonMark lets a code span cross a line break: an unpaired backtick on each line would have made the
    // image between them code to the escaper and an image to the renderer.
    const prose = safeProse('Start `\n`![x](http:evil.example/px.png)` and [go](http:evil.example) `\nend.');
    const rendered = renderPage(prose);
    assert.deepEqual(rendered.images, []);
    assert.deepEqual(
      rendered.links.map((link) => link.href),
      [],
    );
  });

  it("no spelling of a diagram fence draws the model's diagram, and no underline makes its text a heading", () => {
    for (const info of ['Mermaid', '{mermaid}', ' mermaid title="x"', 'MERMAID']) {
      const prose = safeProse(['Intro.', `\`\`\`${info}`, 'graph LR; A-->B', '```'].join('\n'));
      assert.match(prose, /^```text$/m, info);
      assert.doesNotMatch(prose, /mermaid/i, info);
    }
    const rendered = renderPage(safeProse('Overview\n===\n\nParts\n---\nText.'));
    assert.doesNotMatch(rendered.rendered, /<h[1-6]/, rendered.rendered);
    // In a list item or a quote, too: no heading of the model's above the page's third level.
    const nested = renderPage(safeProse(['- # Title', '- item', '    ===', '', '> quote', '> ---', '', '#', '1. ## Step'].join('\n')));
    assert.doesNotMatch(nested.rendered, /<h[12]/, nested.rendered);
  });

  it('a web address beside a code span stays apart from it: their backticks never run together into one fence', () => {
    for (const hostile of ['see http://a.com``<img src=x onerror=alert(1)>```', '``<img src=x onerror=alert(1)>``http://a.com` x', 'mail a@b.co``<b>x</b>``']) {
      const rendered = renderPage(safeProse(hostile));
      assert.deepEqual(rendered.html, [], `${hostile} → ${safeProse(hostile)}`);
      assert.deepEqual(rendered.images, [], hostile);
      assert.deepEqual(
        rendered.links.map((link) => link.href),
        [],
        hostile,
      );
    }
  });

  it('page markers in the prose, even in a code block, never pass for the notes', () => {
    const prose = safeProse('Text.\n~~~\n<!-- codewiki:notes:start -->![](https://evil.example/px)<!-- codewiki:notes:end -->\n~~~');
    assert.doesNotMatch(prose, /codewiki:/);
  });

  it('a page marker spelled by code on the page (a signature in inline code) never moves the notes or the prose', () => {
    const marker = '<!-- codewiki:notes:start -->![x](https://evil.example/px)<!-- codewiki:notes:end -->';
    const page = [
      '<!-- codewiki:page {"version":1,"module":"m","sources":"s"} -->',
      '# `<!-- codewiki:prose:start -->`',
      '',
      '## Overview',
      '',
      '<!-- codewiki:prose:start -->',
      'The real overview.',
      '<!-- codewiki:prose:end -->',
      '',
      '## Key definitions',
      '',
      `- \`f(a='${marker}')\``,
      '',
      '## Notes',
      '',
      '<!-- codewiki:notes:start -->',
      'My own notes.',
      '<!-- codewiki:notes:end -->',
      '',
    ].join('\n');
    const parts = readPageParts(page);
    assert.equal(parts.prose, 'The real overview.');
    assert.equal(parts.notes, '\nMy own notes.\n');
  });
});

function readFileSyncText(path: string): string {
  return require('node:fs').readFileSync(path, 'utf8') as string;
}
