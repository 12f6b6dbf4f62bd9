/**
 * The licence header at the top of a source file, which the index reads past: Apache's fills the first fourteen lines
 * of every Java file in many projects, so a head made of it tells the index nothing and gives every file the same
 * "about" line ("WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.").
 */

/**
 * What a licence header's first lines say (Apache, MIT, BSD, GPL, MPL, SPDX, `@license`), phrased so that a file's
 * own comment about licences or copyright notices ("reads the licence field of package.json", "builds the copyright
 * notice of the About dialog") does not look like one.
 */
const LICENCE =
  /copyright\s*(?:\(c\)|©|\d{4})|©|\(c\)\s*(?:\d{4}|[A-Z])|all rights reserved|spdx-license-identifier|@license\b|licensed (?:to|under)|governed by an? [\w-]+ (?:style )?licen[cs]e|permission is hereby granted|is free software|mozilla public|source code form is subject to/i;
/** Any line of a licence's later paragraphs says one of these (MIT's last: "WITHOUT WARRANTY OF ANY KIND"). */
const LICENCE_WORDS = /copyright|licen[cs]e|warrant|liabil|spdx|all rights reserved|permission|free software|©|\(c\)/i;
/** Lines before a header that are for tools, not readers: a shebang, an encoding or magic comment, PHP's opening tag. */
const PREAMBLE = /^(?:#!|<\?php\b|#.*-\*-.*-\*-|#\s*(?:frozen_string_literal|encoding|coding)\s*[:=])/;
/** `#` lines that are code, not comments: C's preprocessor. */
const NOT_A_COMMENT = /^#\s*(?:include|define|undef|ifn?def|if|elif|else|endif|pragma|import|error)\b/;
/** How many lines of a header's start are read for the words above. */
const LICENCE_WITHIN = 3;

/**
 * How many of `lines` (a file's first lines) the licence header takes, 0 when there is none. The header is the file's
 * leading comment (one block comment, or a run of line comments up to the first blank line) when one of its first
 * three lines names a copyright or licence. A run of line comments is read past paragraph by paragraph, up to the
 * first paragraph with none of a licence's words (the file's own); a block comment with such a paragraph is kept
 * whole, for the "about" line to cut after its licence (fileAbout.ts), and so is one that does not close within
 * `lines`. Blank lines and tool lines (a shebang, an encoding comment) before the header go with it.
 */
export function licenceHeaderLength(lines: readonly string[]): number {
  let first = 0;
  while (first < lines.length && (!lines[first]!.trim() || PREAMBLE.test(lines[first]!.trim()))) first++;
  const opening = lines[first]?.trim() ?? '';
  if (opening.startsWith('/*')) {
    let end = first;
    while (end < lines.length && !lines[end]!.includes('*/')) end++;
    if (end === lines.length) return 0;
    const block = lines.slice(first, end + 1).map((line) => line.trim().replace(/^\/\*+!?|\*+\/$|^\*+/g, ''));
    return startsLikeLicence(block) && licenceParagraphs(block) === block.length ? end + 1 : 0;
  }
  const marker = /^(\/\/|#|--)/.exec(opening)?.[1];
  if (!marker || NOT_A_COMMENT.test(opening)) return 0;
  let end = first;
  while (end < lines.length && lines[end]!.trim().startsWith(marker) && !NOT_A_COMMENT.test(lines[end]!.trim())) end++;
  const run = lines.slice(first, end).map((line) => line.trim().slice(marker.length).replace(/^[/!]/, ''));
  return startsLikeLicence(run) ? first + licenceParagraphs(run) : 0;
}

/**
 * How many of a comment's lines (markers taken off) its licence paragraphs take: paragraphs end at a line with no
 * words, and the first paragraph with words but none of a licence's is the file's own (`# Copyright …`, `#`,
 * `# This module …`). A ruler (`# ====`) is neither.
 */
function licenceParagraphs(comment: readonly string[]): number {
  let kept = 0;
  let paragraph: string[] = [];
  for (let at = 0; at <= comment.length; at++) {
    const text = at < comment.length ? comment[at]!.trim() : '';
    if (/\w/.test(text)) {
      paragraph.push(text);
      continue;
    }
    if (paragraph.length && !paragraph.some((line) => LICENCE_WORDS.test(line))) return kept;
    paragraph = [];
    kept = Math.min(at + 1, comment.length);
  }
  return comment.length;
}

/** Whether a comment's first three lines with words in them name a copyright or licence. */
export function startsLikeLicence(comment: readonly string[]): boolean {
  return comment
    .filter((line) => /\w/.test(line))
    .slice(0, LICENCE_WITHIN)
    .some((line) => LICENCE.test(line));
}
