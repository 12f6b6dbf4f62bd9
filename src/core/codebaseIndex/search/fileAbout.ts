import type { IndexContents } from '../indexContents';

// What a file is about, in one line, for the index's list of matches: what a small model reads before it picks a file.

const MAX_ABOUT_CHARS = 120;
/** Lines that say where code comes from, not what it does: imports, package lines, licence comments. */
export const PLUMBING = /^(import|package|use|from|require|#include|using|namespace)\b|^["'][\w./@-]+["'],?$|licen[cs]e|copyright/i;

/** What a file is about in one line: its opening comment (a module doc), else the doc of the definition it is named after, else its first definition's doc line. */
export function aboutFile(contents: IndexContents, path: string): string | undefined {
  const facts = contents.get(path);
  if (!facts) return undefined;
  const opening = openingComment(facts.head);
  if (opening) return short(opening);
  // The definition a file is named after says what the file is about (Go's context.go and its Context); the
  // first documented one may be a constant's (context.go's "Content-Type MIME of the most common data formats").
  const stem = fileStem(path);
  const documented = facts.symbols.filter((symbol) => symbol.doc);
  const doc = (documented.find((symbol) => symbol.name.toLowerCase() === stem) ?? documented[0])?.doc;
  return doc ? short(doc) : undefined;
}

/** A file's name as a definition would spell it in lower case: `route_group.go` → `routegroup`. */
function fileStem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name
    .replace(/\.[^.]*$/, '')
    .replace(/[-_.]/g, '')
    .toLowerCase();
}

/** The first sentence-like line of the comments at a file's top (line comments, or a block comment or docstring); licence blocks are skipped whole. */
function openingComment(head: string): string | undefined {
  for (const block of commentBlocks(head)) {
    if (/copyright|licen[cs]e|spdx/i.test(block.join(' '))) continue;
    const line = block.find((text) => text.split(/\s+/).length >= 3 && !/eslint|@ts-|prettier|generated|^[#!]/i.test(text));
    if (line) return line;
  }
  return undefined;
}

/** Lines before a file's code that are not code of their own: a shebang, Rust's inner attributes, 'use strict'. */
const FILE_PREAMBLE = /^#!|^['"]use strict['"];?$/;
/** The rest of an import that spans lines: `)` after Go's `import (`, names and `} from '…'` in TypeScript. */
const IMPORT_CONTINUATION = /^[)}\]];?$|^[\w$]+(?:\s+as\s+[\w$]+)?,?$|^}\s*from\s/;

/**
 * The comments at the top of a file that may say what it is about, each run of line comments or each block comment
 * as one list of its lines' text: those before its first import or package line (a module docstring, Go's package
 * doc, Rust's `//!`, a file's header comment), and those after it that the code does not follow at once. A comment
 * right above a line of code documents that line (Go's `// regEnLetter matches …` over its var). The head has no
 * blank lines, so a module comment after the imports counts only when more imports follow it. A comment the head
 * cuts short counts for nothing.
 */
function commentBlocks(head: string): string[][] {
  const blocks: Array<{ lines: string[]; late: boolean }> = [];
  let current: { lines: string[]; late: boolean } | undefined;
  let late = false;
  let inBlock = false;
  for (const raw of head.split('\n')) {
    let line = raw.trim();
    const opens = /^(\/\*+!?|"""|''')/.exec(line);
    if (!inBlock && opens) {
      blocks.push((current = { lines: [], late }));
      inBlock = !/(\*\/|"""|''')\s*$/.test(line.slice(opens[0].length));
      line = line.slice(opens[0].length);
    } else if (inBlock) {
      if (/(\*\/|"""|''')\s*$/.test(line)) inBlock = false;
      line = line.replace(/^\*+\s?/, '');
    } else {
      const comment = /^(?:\/\/[/!]?|#(?!include|define|!)|--)\s*(.*)$/.exec(line);
      if (!comment) {
        if (FILE_PREAMBLE.test(line)) continue;
        if (PLUMBING.test(line) || (late && IMPORT_CONTINUATION.test(line))) {
          [current, late] = [undefined, true];
          continue;
        }
        if (current?.late) blocks.pop();
        return blocks.map((block) => block.lines);
      }
      if (!current) blocks.push((current = { lines: [], late }));
      line = comment[1]!;
    }
    const text = line.replace(/\*\/\s*$|"""\s*$|'''\s*$/, '').trim();
    if (text) current!.lines.push(text);
  }
  // The head ended in or right after a comment: cut short, or above code the head does not show.
  if (inBlock || current?.late) blocks.pop();
  return blocks.map((block) => block.lines);
}

/** The first sentence, within MAX_ABOUT_CHARS: every token of it is read before a small model's first word. */
function short(text: string): string {
  const end = /[.!?](?=\s+[A-Z`"'(])/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return sentence.length > MAX_ABOUT_CHARS ? `${sentence.slice(0, MAX_ABOUT_CHARS - 1)}…` : sentence;
}
