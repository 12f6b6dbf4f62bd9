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
  const text = render(definitions, hits, budgetTokens);
  return { text, tokens: estimateTokens(text), definitions, hits };
}

/** Tokens left for the words its users put around the list (a header, what to do with it). */
const FRAMING_TOKENS = 60;

/** The matches as a list, best first, one `path:line: what is there` per line, within the budget. */
function render(definitions: SymbolMatch[], hits: CodeSearchHit[], budget: number): string {
  const blocks: string[] = [];
  for (const definition of definitions) {
    blocks.push(`- ${definition.path}:${definition.line} defines ${definition.name} (${definition.kind}): ${definition.signature}${definition.doc ? ` — ${definition.doc}` : ''}`);
  }
  const shown = new Set(definitions.map((definition) => `${definition.path}:${definition.line}`));
  for (const hit of hits) {
    const lines = [
      ...hit.symbols.filter((symbol) => !shown.has(`${hit.path}:${symbol.line}`)).map((symbol) => `  ${hit.path}:${symbol.line}: ${symbol.signature}`),
      ...hit.lines.map((line) => `  ${hit.path}:${line.line}${line.within ? ` (in ${line.within})` : ''}: ${line.text}`),
    ];
    blocks.push([`- ${hit.path}`, ...lines].join('\n'));
  }
  let text = '';
  for (const block of blocks) {
    const next = text ? `${text}\n${block}` : block;
    if (estimateTokens(next) > budget - FRAMING_TOKENS) break;
    text = next;
  }
  return text;
}
