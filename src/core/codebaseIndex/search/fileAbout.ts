import type { IndexContents } from '../indexContents';
import { startsLikeLicence } from '../parsing/licenceHeader';

// What a file is about, in one line, for the index's list of matches: what a small model reads before it picks a file.

const MAX_ABOUT_CHARS = 120;
/** Lines that say where code comes from, not what it does: imports, package lines, licence comments. */
export const PLUMBING = /^(import|package|use|from|require|#include|using|namespace)\b|^["'][\w./@-]+["'],?$|licen[cs]e|copyright/i;
/**
 * A C include guard's lines (`#ifndef UV_WIN_WINSOCK_H_`, `#define UV_H`, `#endif /* UV_H *\/`): split into words,
 * they match a question about Windows sockets. A `#define` with a value (`#define SCREEN_H 480`) is no guard.
 */
export const INCLUDE_GUARD_LINE = /^#\s*(?:(?:ifndef|define)\s+\w+_(?:H|HPP|HXX|HH|INCLUDED)_*\s*$|endif\b.*\b\w+_(?:H|HPP|HXX|HH|INCLUDED)_*\b)/;

/** What a file is about in one line: its opening comment (a module doc), else the doc of the definition it is named after, else its first definition's doc line. */
export function aboutFile(contents: IndexContents, path: string): string | undefined {
  const facts = contents.get(path);
  if (!facts) return undefined;
  const opening = openingComment(facts.head);
  if (opening) return short(opening);
  // The definition a file is named after says what the file is about (Go's context.go and its Context); the
  // first documented one may be a constant's (context.go's "Content-Type MIME of the most common data formats").
  const stem = fileStem(path);
  // A doc that is only a web address says nothing (libuv's core.c: `/* https://github.com/libuv/libuv/issues/1674 */`
  // over its `uv_clock_gettime`, its first documented definition).
  const documented = facts.symbols.filter((symbol) => symbol.doc && /\p{L}{2,}/u.test(withoutWebAddresses(symbol.doc)));
  const doc = (documented.find((symbol) => nameKey(symbol.name) === stem) ?? documented[0])?.doc;
  return doc ? short(doc) : undefined;
}

/** A name as a file or a definition spells it, compared without case, `_`, `-` or `.`: `route_group.go`, `RouteGroup` → `routegroup`. */
export function nameKey(name: string): string {
  return name.replace(/[-_.]/g, '').toLowerCase();
}

/** A file's name without its extension, as nameKey spells it. */
export function fileStem(path: string): string {
  return nameKey(path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''));
}

const LICENCE = /copyright|licen[cs]e|spdx|all rights reserved/i;
/** Comments that are instructions to tools, not prose: linters, build tags, editors, encodings, Ruby's magic comments. */
const TOOL_COMMENT =
  /eslint|@ts-|prettier|generated|^[#!]|^go:|^\+build|nolint|noqa|pylint|coding[:=]|vim:|frozen_string_literal|rubocop:|warn_indent|^ReSharper\b/i;

/**
 * The first sentence-like line of the comments at a file's top (line comments, or a block comment or docstring), after
 * any licence: the head has no blank lines, so Go's licence lines and its package doc arrive as one run of comments.
 */
export function openingComment(head: string): string | undefined {
  for (const block of commentBlocks(head)) {
    // A licence's continuation lines ("license that can be found in the LICENSE file") name no copyright, so once a
    // block starts like a licence, it is cut after its last line that mentions one.
    const afterLicence = startsLikeLicence(block) ? block.slice(block.findLastIndex((text) => LICENCE.test(text)) + 1) : block;
    const line = afterLicence.find((text) => isProse(text) && !TOOL_COMMENT.test(text));
    if (line) return line;
  }
  return undefined;
}

/**
 * A line that says something in words: three of them at least, or a phrase in a script written without spaces
 * (`处理会话的模块`). Requests' `__init__.py` opens with its name drawn in ASCII art (`/__)  _  _     _   _ _/   _`),
 * which has as many spaces as a sentence and no word.
 */
function isProse(text: string): boolean {
  const words = withoutWebAddresses(text);
  return (words.match(/\p{L}{2,}/gu) ?? []).length >= 3 || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{4,}/u.test(words);
}

/** A web address is no words: `See https://github.com/libuv/libuv#documentation for documentation.` has three. */
function withoutWebAddresses(text: string): string {
  return text.replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' ');
}

/** Lines before a file's code that are not code of their own: a shebang, Rust's inner attributes, a directive ('use strict'), C's include guard. */
const FILE_PREAMBLE = /^#!|^['"]use [\w ]+['"];?$|^#\s*(?:ifndef|ifdef|if|define|endif|pragma)\b/;
/** A line comment; `#` only where it is no preprocessor line. */
const LINE_COMMENT = /^(?:\/\/[/!]?|#(?!\s*(?:include|define|ifn?def|if|endif|pragma|import)\b|!)|--)\s*(.*)$/;

interface CommentBlock {
  lines: string[];
  /** After the file's first import or package line: a block comment or docstring there counts only when more imports follow it. */
  late: boolean;
  /** A run of line comments (`//`, `#`), rather than one block comment. */
  lineComments: boolean;
}

/**
 * The comments at the top of a file that may say what it is about, each run of line comments or each block comment
 * as one list of its lines' text: those before its first import or package line (a module docstring, Go's package
 * doc, Rust's `//!`, a file's header comment), and a block comment after it that more imports follow. A comment right
 * above code documents that code (Go's `// regEnLetter matches …` over its var), and a line comment among the
 * imports is about the next import; the head has no blank lines to tell a module comment from them. A block
 * comment after the imports that the head cuts short counts for nothing.
 */
function commentBlocks(head: string): string[][] {
  const blocks: CommentBlock[] = [];
  /** The block the line before this one belonged to (line comments join it); undefined after any other line. */
  let adjacent: CommentBlock | undefined;
  let late = false;
  let inBlock = false;
  /** Inside a multi-line import (`import (` in Go, `import {` in TypeScript, `use std::{` in Rust). */
  let inImport = false;
  const close = (keep: (block: CommentBlock) => boolean) => {
    if (adjacent && !keep(adjacent)) blocks.splice(blocks.lastIndexOf(adjacent), 1);
    adjacent = undefined;
  };
  for (const raw of head.split('\n')) {
    let line = raw.trim();
    const opens = /^(\/\*+!?|"""|''')/.exec(line);
    if (inImport) {
      if (/^[)}]/.test(line)) inImport = false;
      continue;
    }
    if (!inBlock && opens) {
      blocks.push((adjacent = { lines: [], late, lineComments: false }));
      inBlock = !/(\*\/|"""|''')\s*$/.test(line.slice(opens[0].length));
      line = line.slice(opens[0].length);
    } else if (inBlock) {
      if (/(\*\/|"""|''')\s*$/.test(line)) inBlock = false;
      line = line.replace(/^\*+\s?/, '');
    } else {
      const comment = LINE_COMMENT.exec(line);
      if (!comment) {
        if (FILE_PREAMBLE.test(line)) continue;
        if (PLUMBING.test(line)) {
          close((block) => !block.late || !block.lineComments);
          late = true;
          inImport = /[({]\s*$/.test(line);
          continue;
        }
        close((block) => !block.late);
        break;
      }
      // Line comments after a block comment start a block of their own (a licence block, then what the file does).
      if (!adjacent?.lineComments) blocks.push((adjacent = { lines: [], late, lineComments: true }));
      line = comment[1]!;
    }
    const text = line.replace(/\*\/\s*$|"""\s*$|'''\s*$/, '').trim();
    if (text) adjacent!.lines.push(text);
  }
  // The head ended in or right after a late comment: cut short, or above code the head does not show.
  close((block) => !block.late);
  return blocks.map((block) => block.lines);
}

/** The first sentence, within MAX_ABOUT_CHARS: every token of it is read before a small model's first word. */
function short(text: string): string {
  // A sentence ends at . ! ? before a capital, not after an abbreviation ("e.g. GET").
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?](?=\s+[A-Z`"'(])/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return sentence.length > MAX_ABOUT_CHARS ? `${sentence.slice(0, MAX_ABOUT_CHARS - 1)}…` : sentence;
}
