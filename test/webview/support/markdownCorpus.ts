import { HEAVY_ANSWERS } from './builders';

/**
 * Answers whose streamed rendering must end exactly as rendering them at once: the heavy ones, and
 * the constructs that reach across lines or blocks (fences with blank lines, loose lists, lazy
 * quotes, tables, setext headings, indented code, link definitions used before they are made, CRLF).
 */
export const MARKDOWN_CORPUS: Record<string, string> = {
  'code fences': HEAVY_ANSWERS['code fences'](40),
  headings: HEAVY_ANSWERS.headings(40),
  emphasis: HEAVY_ANSWERS.emphasis(40),
  'mixed blocks': [
    'Intro with **bold** and `code`.',
    '',
    '- a',
    '',
    '  more a',
    '- b',
    '',
    '```js',
    'x',
    '',
    '# not a heading',
    '```',
    '',
    'End',
    '1. one',
    '2. two',
    '',
    '3. three',
    '> quote',
    'lazy line',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    'Setext',
    '===',
    'para',
    '---',
    '    indented',
    '',
    '    code',
    '~~~',
    'tilde',
    '~~~~',
    '* * *',
    '',
  ].join('\n'),
  'link definitions': [
    'See [the guide][g], [x] and ![logo][x].',
    '',
    '```',
    '[g]: not a definition inside a fence',
    '```',
    '',
    '[g]: https://example.com/g "Guide"',
    '[x]: https://example.com/x',
    '',
    'Again [g], defined once more below (the first one wins).',
    '',
    '[g]: https://example.com/second',
    '',
  ].join('\n'),
  'definitions with titles on later lines': [
    '[t]: https://example.com/t',
    '"a title',
    'that spans lines"',
    'See [t] and [u].',
    '',
    '[u]: https://example.com/u',
    '(a title',
    'in parentheses)',
    '[v]: https://example.com/v',
    "'not closed",
    '',
    'And [v].',
    '',
  ].join('\n'),
  'definitions used before, after and in other cases': [
    ...Array.from({ length: 12 }, (_, i) => `Use [Ref  ${i}] and [ref ${i + 1}][] and ![img][REF ${i}].`),
    '',
    '> [ref 3]: https://example.com/quoted',
    ...Array.from({ length: 12 }, (_, i) => `[ref ${i}]: https://example.com/${i}`),
    '',
    'After: [ref 5], [ref 12], [ref 99].',
    '',
  ].join('\n'),
  'CRLF line ends': 'a\r\nb\r\n\r\n# h\r\n```\r\ncode\r\n```\r\nmore\r\n',
  'unclosed fence': 'text\n```\nnever closed\n\n# still code\n',
  'fence in a list item': '- item\n  ```\n  code\ntext at column 0\n```\n# inside a fence\n```\n',
  'table interrupting a paragraph': 'para line\nh1 | h2\n--|--\nc | d\n',
};

/** Lines and words that interact across lines and blocks, for generated answers. */
const BLOCK_LINES = [
  '',
  '',
  '- a',
  '  - b',
  '1. x',
  '2) y',
  '```',
  '~~~',
  '   ```js',
  '> ```',
  '    code',
  '# h',
  'para',
  'more text',
  '> q',
  '---',
  '===',
  '* * *',
  '| a | b |',
  '|---|---|',
  '[r]: /u',
  'see [r]',
  '**b',
  '*e*',
  '`c',
  '[a](',
  '/u)',
  '\t- c',
  'a  ',
  'x\r',
];
const WORDS = [
  'word',
  'word',
  'other',
  '**bold**',
  '*em*',
  '_u_',
  '`code`',
  '[link](https://x.y)',
  '[r]',
  '~~s~~',
  '<https://a.b>',
  '&amp;',
  '**open',
  'close**',
  '[open',
  '`tick',
  'a*b',
  'x_y',
];
const LINE_ENDS = ['\n', '\n', '\n', '  \n', '\\\n', '\n   '];

/** A small deterministic generator (xorshift), so a failing answer can be reproduced from its seed. */
function generator(seed: number): (n: number) => number {
  let state = seed || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** A generated answer: either mixed blocks, or one long paragraph of inline constructs (rendered in pieces while streaming). */
export function generatedAnswer(seed: number): string {
  const pick = generator(seed);
  if (seed % 2) return Array.from({ length: 5 + pick(25) }, () => BLOCK_LINES[pick(BLOCK_LINES.length)]).join('\n') + '\n';
  let text = pick(3) === 0 ? '[r]: https://early.example\n\n' : '';
  for (let line = 20 + pick(40); line > 0; line--)
    text += Array.from({ length: 1 + pick(8) }, () => WORDS[pick(WORDS.length)]).join(' ') + LINE_ENDS[pick(LINE_ENDS.length)];
  return text + (pick(3) === 0 ? '\n[r]: https://late.example\n' : '');
}
