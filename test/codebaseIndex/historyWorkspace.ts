/** A small workspace of a history store with a lock, and a retry policy elsewhere: what where-is and how questions ask about. */
export const HISTORY_WORKSPACE = {
  'src/history/conversationLock.ts': [
    '/** Lets several windows share one history: each save waits its turn. */',
    'export class ConversationLock {',
    '  async acquire(id: string): Promise<() => void> {',
    '    return () => undefined;',
    '  }',
    '}',
  ].join('\n'),
  'src/history/conversationStore.ts':
    "import { ConversationLock } from './conversationLock';\nexport function saveConversation(lock: ConversationLock): void {}\n",
  'src/llm/retryPolicy.ts':
    '/** Retries 429 and 5xx answers with backoff. */\nexport function retryDelay(attempt: number): number {\n  return attempt * 100;\n}\n',
  'README.md': '# Demo\n',
};
