import type { ChatMessage, Conversation } from './conversationTypes';

/**
 * Case-insensitive substring search over what a person would remember about a conversation: its title,
 * what was typed, the answers, for /agent runs the prompt title, the input values and the answer, and for
 * agent-mode turns the answer and each tool call (name, arguments, output, error).
 */
export function conversationMatches(conversation: Conversation, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  if (conversation.title.toLowerCase().includes(needle)) return true;
  return conversation.messages.some((message) => searchableTexts(message).some((text) => text.toLowerCase().includes(needle)));
}

function searchableTexts(message: ChatMessage): string[] {
  if (message.kind === 'agent-turn') {
    // What the tools found is often what a person remembers ("the turn that read the retry policy").
    return [message.answer, ...message.toolCalls.flatMap((call) => [call.displayName, call.argsSummary, call.output ?? '', call.error ?? ''])];
  }
  if (message.kind !== 'prompt-run') return [message.text];
  return [message.promptTitle, message.answer, ...Object.values(message.inputs).flatMap(leafTexts)];
}

/** Input values may be nested (lists of files, option objects); every leaf value is searchable. */
function leafTexts(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).flatMap(leafTexts);
  return [String(value)];
}
