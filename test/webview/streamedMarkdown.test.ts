import { strict as assert } from 'node:assert';
import { md, type References } from '../../webview-ui/src/markdownParser';
import { type RenderedBlock, StreamedMarkdown } from '../../webview-ui/src/streamedMarkdown';
import { HEAVY_ANSWERS } from './support/builders';
import { generatedAnswer, MARKDOWN_CORPUS } from './support/markdownCorpus';

/** The streaming renderer in Node, with markdown-it alone (no DOM): the webview adds DOMPurify per block. */
function renderer(counter = { calls: 0, characters: 0 }) {
  const counted = (render: (source: string, env: { references: References }) => string) => (source: string, references: References) => {
    counter.calls++;
    counter.characters += source.length;
    return render(source, { references });
  };
  const stream = new StreamedMarkdown({ block: counted((s, env) => md.render(s, env)), inline: counted((s, env) => md.renderInline(s, env)) });
  return { stream, counter };
}

/** The answer's HTML, as the view puts it together (a paragraph in pieces is one `<p>`). */
const joined = (blocks: ReadonlyArray<RenderedBlock<string>>) =>
  blocks.map((block) => ('pieces' in block ? `<p>${block.pieces.map((piece) => piece.content).join('')}</p>\n` : block.content)).join('');

/** Every prefix a stream of `size`-character chunks goes through, then the whole text. */
function* prefixes(text: string, size: number): Generator<string> {
  for (let end = size; end < text.length; end += size) yield text.slice(0, end);
  yield text;
}

describe('streamed Markdown (no DOM)', () => {
  for (const [name, text] of Object.entries(MARKDOWN_CORPUS)) {
    it(`${name}: every frame, and the end, render exactly as the whole text rendered at once`, () => {
      for (const size of [1, 3, 16, 200]) {
        const { stream } = renderer();
        for (const prefix of prefixes(text, size))
          assert.equal(joined(stream.render(prefix, true)), md.render(prefix), `${size}-character chunks, at ${prefix.length}`);
        assert.equal(joined(stream.render(text, false)), md.render(text), `${size}-character chunks, done`);
      }
      assert.equal(joined(renderer().stream.render(text, false)), md.render(text), 'a finished answer shown afresh');
    });
  }

  it('generated answers (blocks, and long paragraphs in pieces): every frame renders as the whole text at once', () => {
    let inPieces = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const text = generatedAnswer(seed);
      const { stream } = renderer();
      for (let end = 1 + (seed % 7); end < text.length + 9; end += 2 + ((end * seed) % 13)) {
        const prefix = text.slice(0, end);
        const blocks = stream.render(prefix, true);
        inPieces += blocks.some((block) => 'pieces' in block) ? 1 : 0;
        assert.equal(joined(blocks), md.render(prefix), `seed ${seed}, at ${prefix.length}`);
      }
      assert.equal(joined(stream.render(text, false)), md.render(text), `seed ${seed}, done`);
    }
    assert.ok(inPieces > 100, `long paragraphs were rendered in pieces (${inPieces} frames)`);
  });

  it('a finished block stays the same object while later chunks arrive and when the answer is done', () => {
    const text = HEAVY_ANSWERS['code fences'](30);
    const { stream } = renderer();
    let first: RenderedBlock<string> | undefined;
    for (const prefix of prefixes(text, 5)) {
      const blocks = stream.render(prefix, true);
      if (blocks.length > 3) first ??= blocks[1];
      if (first) assert.equal(stream.render(prefix, true)[1], first);
    }
    assert.ok(first, 'blocks were finished while streaming');
    assert.equal(stream.render(text, false)[1], first);
  });

  /** Characters handed to the renderer while `text` streams in 16-character chunks. */
  function renderedWhileStreaming(text: string): number {
    const { stream, counter } = renderer();
    for (const prefix of prefixes(text, 16)) stream.render(prefix, true);
    stream.render(text, false);
    return counter.characters;
  }

  for (const shape of ['code fences', 'headings', 'emphasis'] as const) {
    it(`${shape}: streaming work grows linearly with the answer (twice the answer, about twice the work)`, () => {
      const single = renderedWhileStreaming(HEAVY_ANSWERS[shape](200));
      const double = renderedWhileStreaming(HEAVY_ANSWERS[shape](400));
      assert.ok(double < 2.5 * single, `${single} characters rendered for 200, ${double} for 400 (quadratic work would be 4×)`);
    });
  }

  it('a link definition that arrives later re-renders the blocks that may use it, and only those', () => {
    const { stream, counter } = renderer();
    stream.render('Plain text.\n\nSee [docs].\n\n', true);
    const before = counter.calls;
    const blocks = stream.render('Plain text.\n\nSee [docs].\n\n[docs]: https://example.com/docs\n', true);
    assert.match(joined(blocks), /<a href="https:\/\/example.com\/docs">docs<\/a>/);
    assert.equal(counter.calls - before, 2, 'the block with the link and the new definition, not the plain one');
  });

  it('text that is not a continuation (a retried answer) starts over', () => {
    const { stream } = renderer();
    stream.render('# One\n\nfirst answer\n', true);
    assert.equal(joined(stream.render('Second answer', true)), md.render('Second answer'));
  });
});
