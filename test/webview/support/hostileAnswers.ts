/**
 * Answers a model can be made to write (a prompt-injected file is enough) that used to freeze the
 * chat while they streamed, though each renders once in a second or two at most (issue 22, item 7).
 * `count` is the issue's size by default; tests use smaller ones.
 */
export const HOSTILE_ANSWERS: Record<string, { count: number; text: (count: number) => string }> = {
  /** Every use comes first, in its own paragraph; the definitions arrive at the end and change what those paragraphs mean. */
  'link reference definitions used once each': {
    count: 10_000,
    text: (count) => range(count, (i) => `Item ${i} links to [ref ${i}].\n\n`) + range(count, (i) => `[ref ${i}]: https://example.com/${i}\n`),
  },
  /** Openers that never close: nothing in the paragraph is ever finished. */
  'nested emphasis openers': { count: 20_000, text: (count) => '**_'.repeat(count) },
  /** The same across lines: a paragraph the streaming renderer kept trying to split into pieces, parsing it again every few lines. */
  'emphasis openers, one per line': { count: 20_000, text: (count) => '**_\n'.repeat(count) },
  'wide table': {
    count: 10_000,
    text: (count) => `|${range(count, (i) => ` c${i} |`)}\n|${'---|'.repeat(count)}\n|${range(count, (i) => ` ${i} |`)}\n`,
  },
  /** Image labels that never close. */
  'nested image openers': { count: 20_000, text: (count) => '!['.repeat(count) },
  /** Strong emphasis that pairs up across the whole paragraph, on one line. */
  'strong between letters': { count: 20_000, text: (count) => 'a**b'.repeat(count) },
};

const range = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join('');
