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

/**
 * The matches as a numbered list of files, best first: each file with what it is about (its module comment
 * or first doc line), then its definitions and lines that match, each as `path:line: what is there`, within
 * the budget. Numbered and path-first because a small model answers by picking an entry and copying its
 * path; a flat list of lines it echoed or mixed up (Qwen2.5-Coder 1.5B, bench/eval).
 */
function render(contents: IndexContents, definitions: SymbolMatch[], hits: CodeSearchHit[], budget: number): string {
  const byFile = new Map<string, string[]>();
  const add = (path: string, line: string) => byFile.set(path, [...(byFile.get(path) ?? []), line]);
  for (const d of definitions) add(d.path, `   ${d.path}:${d.line} defines ${d.name} (${d.kind}): ${d.signature}${d.doc ? ` — ${d.doc}` : ''}`);
  const shown = new Set(definitions.map((d) => `${d.path}:${d.line}`));
  for (const hit of hits) {
    if (!byFile.has(hit.path)) byFile.set(hit.path, []);
    for (const symbol of hit.symbols.slice(0, 2)) if (!shown.has(`${hit.path}:${symbol.line}`)) add(hit.path, `   ${hit.path}:${symbol.line}: ${symbol.signature}`);
    for (const line of hit.lines.slice(0, 2)) add(hit.path, `   ${hit.path}:${line.line}${line.within ? ` (in ${line.within})` : ''}: ${line.text}`);
  }
  let text = '';
  let number = 0;
  for (const [path, lines] of byFile) {
    const about = aboutFile(contents, path);
    const block = [`${number + 1}. ${path}${about ? ` — ${about}` : ''}`, ...lines].join('\n');
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

/** The first sentence-like line of the comments at a file's top (line comments, or a block comment or docstring), licences skipped. */
function openingComment(head: string): string | undefined {
  let inBlock = false;
  for (const raw of head.split('\n')) {
    let line = raw.trim();
    const opens = /^(\/\*+!?|"""|\'\'\')/.exec(line);
    if (!inBlock && opens) {
      inBlock = !/(\*\/|"""|\'\'\')\s*$/.test(line.slice(opens[0].length));
      line = line.slice(opens[0].length);
    } else if (inBlock) {
      if (/(\*\/|"""|\'\'\')\s*$/.test(line)) inBlock = false;
      line = line.replace(/^\*+\s?/, '');
    } else {
      const comment = /^(?:\/\/[/!]?|#(?!include|define|!)|--)\s*(.*)$/.exec(line);
      if (!comment) continue;
      line = comment[1]!;
    }
    const text = line.replace(/\*\/\s*$|"""\s*$|\'\'\'\s*$/, '').trim();
    if (text.split(/\s+/).length >= 3 && !/copyright|licen[cs]e|spdx|eslint|@ts-|prettier|generated/i.test(text)) return text;
  }
  return undefined;
}

function short(text: string): string {
  return text.length > MAX_ABOUT_CHARS ? `${text.slice(0, MAX_ABOUT_CHARS - 1)}…` : text;
}
