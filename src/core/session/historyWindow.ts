import { estimateTokens, prefixWithinTokens } from '../llm/tokenEstimate';
import type { ChatMessage } from '../history/conversationTypes';
import { agentTurnAnswer } from '../history/agentTurnAnswer';

/** History's share of the model's context when the server says how large it is; the rest is the system prompt, the question, tool rounds and the answer. */
const HISTORY_SHARE = 0.4;
/** When the server does not say (hosted APIs): enough for a long conversation, small enough for any current model. */
export const DEFAULT_HISTORY_TOKENS = 12_000;
/** Exchanges are dropped this many at a time, so the history's head (and a server's cache of it) stays the same for several questions. */
const DROP_STEP = 4;
/** The recap of what was dropped may use this share of the budget. */
const RECAP_SHARE = 0.15;

export interface HistoryWindow {
  /** The exchanges that fit, whole, oldest first. */
  kept: ChatMessage[];
  /** How many earlier exchanges were condensed into `recap`. */
  condensed: number;
  /** One line per condensed exchange (its question and the start of its answer), newest kept when even this is too long. */
  recap?: string;
}

export function historyBudget(contextWindow: number | undefined): number {
  return contextWindow ? Math.max(512, Math.floor(contextWindow * HISTORY_SHARE)) : DEFAULT_HISTORY_TOKENS;
}

/**
 * The conversation as it fits `budgetTokens`: whole exchanges (a question and what answered it), newest
 * kept, and the older ones condensed into a recap instead of sent whole, so an old conversation keeps
 * working where sending all of it would overflow the server's context. Counted in tokens, not messages:
 * one generated design document can outweigh forty short questions.
 */
export function fitHistory(history: readonly ChatMessage[], budgetTokens: number): HistoryWindow {
  const exchanges = splitExchanges(history);
  const sizes = exchanges.map((exchange) => exchange.reduce((sum, message) => sum + tokensOf(message), 0));
  let total = sizes.reduce((a, b) => a + b, 0);
  let first = 0;
  while (total > budgetTokens && first < exchanges.length) {
    const next = Math.min(exchanges.length, first + DROP_STEP);
    for (let i = first; i < next; i++) total -= sizes[i]!;
    first = next;
  }
  if (first === 0) return { kept: [...history], condensed: 0 };
  return { kept: exchanges.slice(first).flat(), condensed: first, recap: recapOf(exchanges.slice(0, first), Math.floor(budgetTokens * RECAP_SHARE)) };
}

/** Groups messages into exchanges: each starts at a question (or an /agent run, which is its own question). */
function splitExchanges(history: readonly ChatMessage[]): ChatMessage[][] {
  const exchanges: ChatMessage[][] = [];
  for (const message of history) {
    if (message.kind === 'user' || message.kind === 'prompt-run' || exchanges.length === 0) exchanges.push([message]);
    else exchanges.at(-1)!.push(message);
  }
  return exchanges;
}

function tokensOf(message: ChatMessage): number {
  if (message.kind === 'user' || message.kind === 'assistant') return estimateTokens(message.text);
  if (message.kind === 'agent-turn') return estimateTokens(agentTurnAnswer(message).answer);
  return estimateTokens(message.answer) + estimateTokens(JSON.stringify(message.inputs));
}

function recapOf(exchanges: ChatMessage[][], budgetTokens: number): string {
  const lines = exchanges.map((exchange) => {
    const [head] = exchange;
    const question = head!.kind === 'user' ? head!.text : head!.kind === 'prompt-run' ? `/agent ${head!.promptTitle}` : '';
    const answer =
      exchange
        .map((m) => (m.kind === 'assistant' ? m.text : m.kind === 'user' ? '' : m.kind === 'agent-turn' ? agentTurnAnswer(m).answer : m.answer))
        .find((text) => text.trim()) ?? '';
    return `- Q: ${oneLine(question, 160)} → A: ${oneLine(answer, 240)}`;
  });
  const kept: string[] = [];
  let used = 0;
  for (const line of lines.reverse()) {
    used += estimateTokens(line);
    if (used > budgetTokens) break;
    kept.unshift(line);
  }
  if (kept.length === 0) return prefixWithinTokens(lines[0] ?? '', budgetTokens);
  return kept.join('\n');
}

function oneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}
