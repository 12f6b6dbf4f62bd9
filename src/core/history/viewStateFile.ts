import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/atomicFile';
import { isValidConversationId } from './conversationIds';

/**
 * UI state that must survive a window reload (which conversation was open). Kept apart from index.json
 * because the index is a disposable cache, while this cannot be rebuilt from the conversation files.
 */
export interface ViewState {
  openConversationId?: string;
}

export async function readViewState(path: string): Promise<ViewState> {
  try {
    const raw = JSON.parse(await readFile(path, 'utf8')) as { openConversationId?: unknown };
    return isValidConversationId(raw.openConversationId) ? { openConversationId: raw.openConversationId } : {};
  } catch {
    return {}; // missing or damaged: start with no conversation open, which is always safe
  }
}

export async function writeViewState(path: string, state: ViewState): Promise<void> {
  await writeFileAtomic(path, JSON.stringify({ version: 1, ...state }));
}
