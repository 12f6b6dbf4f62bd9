import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { ChatMessage } from '../history/conversationTypes';
import { renderValue } from '../values/renderValue';
import { DEFAULT_HISTORY_TOKENS, fitHistory } from './historyWindow';
import { agentTurnAnswer } from '../history/agentTurnAnswer';

export const CHAT_SYSTEM_PROMPT =
  'You are CodeWiki, an assistant for software engineers working in VS Code. Answer precisely, use Markdown, and put code in fenced blocks with a language.';

/** A conversation as the model gets it: the messages, and how many earlier exchanges were condensed to fit. */
export interface HistoryForModel {
  messages: BaseMessage[];
  condensed: number;
}

/**
 * The model's view of a conversation: earlier turns in order, /agent runs included (the user's
 * request as the prompt title and inputs, the answer as the assistant's turn), so a follow-up
 * question about a generated document has that document in context. Unfinished or failed
 * answers are left out: they would teach the model its own broken output. What does not fit
 * `budgetTokens` is condensed (historyWindow.ts).
 */
export function chatHistoryMessages(history: readonly ChatMessage[], budgetTokens = DEFAULT_HISTORY_TOKENS): HistoryForModel {
  const turns = conversationTurns(history, budgetTokens);
  return { messages: [new SystemMessage(CHAT_SYSTEM_PROMPT), ...turns.messages], condensed: turns.condensed };
}

/**
 * The same turns without a system prompt, for the agent (which writes its own). Agent-mode turns
 * contribute their answers only: their tool calls and results stay in history, not in the prompt.
 */
export function conversationTurns(history: readonly ChatMessage[], budgetTokens = DEFAULT_HISTORY_TOKENS): HistoryForModel {
  const window = fitHistory(history, budgetTokens);
  const messages: BaseMessage[] = [];
  for (const message of window.kept) {
    if (message.kind === 'user') messages.push(new HumanMessage(message.text));
    else if (message.kind === 'assistant' && message.text && message.status !== 'error') messages.push(new AIMessage(message.text));
    else if (message.kind === 'agent-turn' && message.status !== 'error') {
      // Never an empty message: a turn stopped right after its answer was sent back has none yet.
      const { answer } = agentTurnAnswer(message);
      if (answer) messages.push(new AIMessage(answer));
    } else if (message.kind === 'prompt-run' && message.answer) {
      const inputs = Object.entries(message.inputs)
        .map(([k, v]) => `- ${k}: ${renderValue(v)}`)
        .join('\n');
      messages.push(new HumanMessage(`/agent ${message.promptTitle}\n${inputs}`), new AIMessage(message.answer));
    }
  }
  if (window.condensed === 0) return { messages, condensed: 0 };
  if (!window.recap) return { messages, condensed: window.condensed };
  const recap = `(Earlier in this conversation, ${window.condensed} exchange${window.condensed === 1 ? '' : 's'} condensed to fit the model's context:\n${window.recap})`;
  // Said with the first question kept, so the roles still alternate; alone when nothing earlier fits.
  const first = messages[0];
  if (first instanceof HumanMessage) messages[0] = new HumanMessage(`${recap}\n\n${String(first.content)}`);
  else messages.unshift(new HumanMessage(recap));
  return { messages, condensed: window.condensed };
}
