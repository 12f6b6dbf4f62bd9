import { licenceHeaderLength } from './licenceHeader';

/**
 * What is not worth indexing even when it is text: minified bundles and generated one-liners (a
 * 5 MB `vendor.min.js` would add a million meaningless mentions and slow every build).
 */

const SAMPLE_CHARS = 64 * 1024;
const LONG_LINE = 1_000;

export function looksMinified(text: string): boolean {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  let lines = 1;
  let longest = 0;
  let start = 0;
  for (let at = sample.indexOf('\n'); at !== -1; at = sample.indexOf('\n', at + 1)) {
    longest = Math.max(longest, at - start);
    start = at + 1;
    lines++;
  }
  longest = Math.max(longest, sample.length - start);
  // Source code averages well under 100 characters a line; bundles put thousands on one.
  return longest > LONG_LINE * 4 || (sample.length / lines > 300 && longest > LONG_LINE);
}

const HEAD_LINES = 12;
const HEAD_CHARS = 600;
/** Read for the head: a GPL header alone is about 1,500 characters. */
const HEAD_READ_CHARS = 8 * 1024;

/**
 * The opening lines that carry meaning (a module comment, a package line), blank lines dropped, after the licence
 * header unless `keepLicence` (a generator's "DO NOT EDIT" may share the licence's comment).
 */
export function fileHead(text: string, options: { keepLicence?: boolean } = {}): string {
  const lines: string[] = [];
  let chars = 0;
  const opening = text.slice(0, HEAD_READ_CHARS).split('\n');
  for (const raw of options.keepLicence ? opening : opening.slice(licenceHeaderLength(opening))) {
    const line = raw.trim();
    if (!line) continue;
    lines.push(line);
    chars += line.length;
    if (lines.length >= HEAD_LINES || chars >= HEAD_CHARS) break;
  }
  return lines.join('\n').slice(0, HEAD_CHARS);
}
