import type { CodeSearchHit, QuestionContext, SymbolMatch } from '../codeIndexTypes';
import { estimateTokens } from '../../llm/tokenEstimate';
import type { IndexContents } from '../indexContents';
import { questionTerms } from './questionTerms';
import { exactDefinitions } from './rankFiles';

export const DEFAULT_QUESTION_BUDGET = 700;
const MAX_DEFINITIONS = 5;

/**
 * The index's answer to a question before any model sees it: definitions the question names exactly
 * (shown to the user as cards at once) and the best ranked files with their lines, rendered as a list
 * for the model within a token budget; its users say what the list is (a search the agent made, or what
 * the user attached with #codebase). It goes into the user's turn, after the fixed system prompt, so the
 * prompt prefix a server caches stays the same from question to question.
 */
export function questionContext(contents: IndexContents, question: string, hits: CodeSearchHit[], budgetTokens: number): Omit<QuestionContext, 'partial'> {
  const definitions: SymbolMatch[] = exactDefinitions(contents, questionTerms(question))
    .slice(0, MAX_DEFINITIONS)
    .map((ref) => {
      const facts = contents.byId(ref.file)!;
      const symbol = facts.symbols[ref.index]!;
      return { ...symbol, path: facts.path, match: symbol.name === question.match(symbol.name)?.[0] ? 'exact' : 'case' };
    });
  const text = render(contents, definitions, hits, budgetTokens);
  return { text, tokens: estimateTokens(text), definitions, hits };
}

/** Tokens left for the words its users put around the list (a header, what to do with it). */
const FRAMING_TOKENS = 60;
const MAX_ABOUT_CHARS = 120;
const MAX_FILES = 4;
const MAX_FILES_WITH_DEFINITION = 3;
/** Lines that say where code comes from, not what it does: imports, package lines, licence comments. */
const PLUMBING = /^(import|package|use|from|require|#include|using|namespace)\b|^["'][\w./@-]+["'],?$|licen[cs]e|copyright/i;

/**
 * The matches as a numbered list of files, best first: each file with what it is about (its module comment
 * or first doc line), then its definitions and lines that match, each as `path:line: what is there`, within
 * the budget. Numbered and path-first because a small model answers by picking an entry and copying its
 * path; a flat list of lines it echoed or mixed up (Qwen2.5-Coder 1.5B, bench/eval).
 */
function render(contents: IndexContents, definitions: SymbolMatch[], hits: CodeSearchHit[], budget: number): string {
  /** Per file, its rendered lines; `plain` marks matching lines (not definitions), which repeat the file's about line at times. */
  const byFile = new Map<string, Array<{ text: string; plain?: boolean }>>();
  const add = (path: string, text: string, plain?: boolean) => byFile.set(path, [...(byFile.get(path) ?? []), { text, plain }]);
  for (const d of definitions) add(d.path, `   ${d.path}:${d.line} defines ${d.name} (${d.kind}): ${d.signature}${d.doc ? ` — ${d.doc}` : ''}`);
  const shown = new Set(definitions.map((d) => `${d.path}:${d.line}`));
  for (const hit of hits) {
    if (!byFile.has(hit.path)) byFile.set(hit.path, []);
    for (const symbol of hit.symbols.slice(0, 2))
      if (!shown.has(`${hit.path}:${symbol.line}`)) add(hit.path, `   ${hit.path}:${symbol.line}: ${symbol.signature}`);
    for (const line of hit.lines.filter((l) => !PLUMBING.test(l.text)).slice(0, 2))
      add(hit.path, `   ${hit.path}:${line.line}${line.within ? ` (in ${line.within})` : ''}: ${line.text}`, true);
  }
  // Fewer files when the question named a definition: the answer is in front, the rest only distracts a small model.
  const maxFiles = definitions.length ? MAX_FILES_WITH_DEFINITION : MAX_FILES;
  let text = '';
  let number = 0;
  for (const [path, lines] of [...byFile].slice(0, maxFiles)) {
    const about = aboutFile(contents, path);
    const shownLines = lines.filter((line) => !(about && line.plain && line.text.includes(about))).map((line) => line.text);
    const block = [`${number + 1}. ${path}${about ? ` — ${about}` : ''}`, ...shownLines].join('\n');
    const next = text ? `${text}\n${block}` : block;
    if (estimateTokens(next) > budget - FRAMING_TOKENS) break;
    text = next;
    number++;
  }
  return text;
}

/** What a file is about in one line: its opening comment (a module doc), else its first definition's doc line. */
function aboutFile(contents: IndexContents, path: string): string | undefined {
  const facts = contents.get(path);
  if (!facts) return undefined;
  const opening = openingComment(facts.head);
  if (opening) return short(opening);
  const doc = facts.symbols.find((symbol) => symbol.doc)?.doc;
  return doc ? short(doc) : undefined;
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

/** The comments at the top of a file, each run of line comments or each block comment as one list of its lines' text. */
function commentBlocks(head: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  let inBlock = false;
  for (const raw of head.split('\n')) {
    let line = raw.trim();
    const opens = /^(\/\*+!?|"""|''')/.exec(line);
    if (!inBlock && opens) {
      blocks.push((current = []));
      inBlock = !/(\*\/|"""|''')\s*$/.test(line.slice(opens[0].length));
      line = line.slice(opens[0].length);
    } else if (inBlock) {
      if (/(\*\/|"""|''')\s*$/.test(line)) inBlock = false;
      line = line.replace(/^\*+\s?/, '');
    } else {
      const comment = /^(?:\/\/[/!]?|#(?!include|define|!)|--)\s*(.*)$/.exec(line);
      if (!comment) {
        current = undefined;
        continue;
      }
      if (!current) blocks.push((current = []));
      line = comment[1]!;
    }
    const text = line.replace(/\*\/\s*$|"""\s*$|'''\s*$/, '').trim();
    if (text) current!.push(text);
  }
  return blocks;
}

function short(text: string): string {
  return text.length > MAX_ABOUT_CHARS ? `${text.slice(0, MAX_ABOUT_CHARS - 1)}…` : text;
}
