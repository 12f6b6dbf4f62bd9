import type { CodeSearchHit, QuestionContext, SymbolMatch } from '../codeIndexTypes';
import { estimateTokens } from '../../llm/tokenEstimate';
import type { IndexContents } from '../indexContents';
import { questionTerms } from './questionTerms';
import { exactDefinitions } from './rankFiles';

export const DEFAULT_QUESTION_BUDGET = 700;
const MAX_DEFINITIONS = 5;

/**
 * The index's answer to a question before any model sees it: definitions the question names exactly
 * (shown to the user as cards at once) and the best ranked files with their lines, rendered for the
 * model within a token budget. It goes into the user's turn, after the fixed system prompt, so the
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

function render(definitions: SymbolMatch[], hits: CodeSearchHit[], budget: number): string {
  if (definitions.length === 0 && hits.length === 0) return '';
  const header = "CodeWiki's code index matched these to the question below, best match first (path:line: what is there):";
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
  const footer = 'If they answer the question, answer in a sentence or two naming the file and line (path:line); if not, use the tools.';
  let text = header;
  for (const block of blocks) {
    const next = `${text}\n${block}`;
    if (estimateTokens(`${next}\n${footer}`) > budget) break;
    text = next;
  }
  return text === header ? '' : `${text}\n${footer}`;
}
