/**
 * A short outline of a source file for `get_file_summaries`: its leading doc comment and its
 * top-level declarations, found with one multiline regex per language (cheap enough for 20,000
 * files; no parser). Files with neither get their first lines instead.
 */

import { type CommentStyle, type OutlineRules, outlineRulesFor } from './outlineRules';

export interface OutlineLimits {
  maxLines: number;
  maxChars: number;
}

const DEFAULT_LIMITS: OutlineLimits = { maxLines: 20, maxChars: 1200 };
const MAX_DOC_LINES = 6;
const MAX_LINE_CHARS = 160;
const FALLBACK_LINES = 10;

export function extractOutline(text: string, language: string, limits: OutlineLimits = DEFAULT_LIMITS): string {
  return buildOutline(text, language, limits).summary;
}

export interface Outline {
  summary: string;
  /**
   * The line or character cap was reached from declarations (or, for languages without rules,
   * from the opening lines), so more of the file could not change the summary. Lets a caller
   * outline a short prefix first and decode the rest only when it would matter.
   */
  complete: boolean;
}

export function buildOutline(text: string, language: string, limits: OutlineLimits = DEFAULT_LIMITS): Outline {
  const rules = outlineRulesFor(language);
  let lines: string[];
  if (language === 'markdown') {
    lines = markdownHeadings(text, limits.maxLines + 1);
  } else if (rules) {
    const doc = leadingComment(text, rules.comment);
    lines = [...doc, ...declarations(text, rules, limits.maxLines + 1 - doc.length)];
  } else {
    lines = [];
  }
  if (lines.length > 0) return capSummary(lines.map(shortenLine), limits.maxLines, limits.maxChars);
  const opening = capSummary(firstLines(text, FALLBACK_LINES + 1).map(shortenLine), Math.min(limits.maxLines, FALLBACK_LINES), limits.maxChars);
  // Declarations further down would replace the opening lines, so only rule-less files are done.
  return { summary: opening.summary, complete: opening.complete && !rules && language !== 'markdown' };
}

function declarations(text: string, rules: OutlineRules, wanted: number): string[] {
  const found: string[] = [];
  rules.declarations.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (found.length < wanted && (match = rules.declarations.exec(text)) !== null) {
    if (match[0] === '') rules.declarations.lastIndex++;
    else if (!rules.skip?.test(match[0])) found.push(match[0].trim());
  }
  return found;
}

/**
 * Headings outside fenced code blocks (a `# comment` in a shell snippet is not a heading). A
 * line loop that looks only at each line's first characters: cheaper than a multiline regex,
 * which tries every position of the text.
 */
function markdownHeadings(text: string, wanted: number): string[] {
  const headings: string[] = [];
  let fence: string | undefined;
  for (let start = 0; start < text.length && headings.length < wanted;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const first = text.charCodeAt(start);
    // '#', '`', '~' or up to three spaces of indentation before a fence.
    if (first === 35 || first === 96 || first === 126 || first === 32) {
      const line = text.slice(start, end);
      const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fenceMatch) {
        const marker = fenceMatch[1] as string;
        if (!fence) fence = marker;
        else if (marker.startsWith(fence)) fence = undefined;
      } else if (!fence && /^#{1,6}\s+\S/.test(line)) {
        headings.push(line.trim());
      }
    }
    start = end + 1;
  }
  return headings;
}

/** The comment a file opens with (after a shebang, `<?php` or encoding line), markers stripped. */
function leadingComment(text: string, style: CommentStyle): string[] {
  if (style === 'none') return [];
  // Lines are taken one at a time: the comment is usually a few lines at the very top.
  const lines = lineReader(text);
  let line = lines();
  while (line !== undefined && (line.trim() === '' || /^(#!|<\?php|#.*-\*-.*-\*-|# *frozen_string_literal)/.test(line))) {
    line = lines();
  }
  if (line === undefined) return [];
  const first = line.trim();
  const collected: string[] = [];
  const blockOpener = style === 'c' ? /^\/\*+!?/ : style === 'python' ? /^[rRuU]?("""|''')/ : undefined;
  const opened = blockOpener?.exec(first);
  if (opened) {
    const close = style === 'c' ? '*/' : (opened[1] as string);
    let current: string | undefined = first.slice(opened[0].length);
    while (current !== undefined && collected.length <= MAX_DOC_LINES) {
      const end = current.indexOf(close);
      collected.push(
        (end >= 0 ? current.slice(0, end) : current)
          .trim()
          .replace(/^\*+\s?/, '')
          .trim(),
      );
      if (end >= 0) break;
      current = lines()?.trim();
    }
  } else {
    const marker = style === 'c' ? /^\/\/[/!]?\s?/ : /^#\s?/;
    let current: string | undefined = first;
    while (current !== undefined && marker.test(current) && collected.length <= MAX_DOC_LINES * 2) {
      collected.push(current.replace(marker, '').trim());
      current = lines()?.trim();
    }
  }
  return collected.filter((entry) => entry !== '').slice(0, MAX_DOC_LINES);
}

/** Returns successive lines of `text` (without the newline), then undefined. */
function lineReader(text: string): () => string | undefined {
  let offset = 0;
  return () => {
    if (offset > text.length) return undefined;
    const newline = text.indexOf('\n', offset);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(offset, end);
    offset = end + 1;
    return line;
  };
}

function firstLines(text: string, count: number): string[] {
  const lines = lineReader(text);
  const found: string[] = [];
  for (let line = lines(); line !== undefined && found.length < count; line = lines()) {
    if (line.trim() !== '') found.push(line.trimEnd());
  }
  return found;
}

/**
 * Cuts very long lines; otherwise each line is the file's own. (Dropping a trailing `{` once made
 * declarations shorter, but it also stripped the braces from the opening lines of files without
 * declarations, showing code that is not in the file.) No regex: this runs per line of 20,000 files.
 */
function shortenLine(line: string): string {
  let cleaned = line.trimEnd();
  if (cleaned.includes('\t')) cleaned = cleaned.replaceAll('\t', '  ');
  return cleaned.length > MAX_LINE_CHARS ? `${cleaned.slice(0, MAX_LINE_CHARS - 1)}…` : cleaned;
}

/** Stops at whole lines; a trailing "…" says there was more. */
function capSummary(lines: string[], maxLines: number, maxChars: number): Outline {
  const kept: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (kept.length >= maxLines || chars + line.length + 1 > maxChars - 2) {
      kept.push('…');
      return { summary: kept.join('\n'), complete: true };
    }
    kept.push(line);
    chars += line.length + 1;
  }
  return { summary: kept.join('\n'), complete: false };
}
