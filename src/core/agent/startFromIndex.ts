import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import { waitForIndex } from '../codebaseIndex/waitForIndex';
import type { AgentEventBody } from './agentEvents';

export interface IndexedQuestion {
  /** The candidates rendered for the model, to follow the question; empty when the index found nothing. */
  text: string;
  /** Files the candidates name: the model has seen them (signatures and lines) without opening them. */
  files: string[];
}

/**
 * Before the first model call: the question's names and words are looked up in the index, the exact
 * definitions go to the user at once (cards), and the best candidates go to the model with the question.
 * A build in progress is waited for, with progress (waitForIndex.ts); a failing index never fails the turn.
 */
export async function startFromIndex(index: CodeIndex, question: string, signal: AbortSignal, emit: (event: AgentEventBody) => void): Promise<IndexedQuestion> {
  try {
    await waitForIndex(index, { signal, onProgress: (s) => emit({ type: 'index-wait', indexedFiles: s.indexedFiles, totalFiles: s.totalFiles }) });
    const context = await index.questionContext(question);
    if (context.definitions.length) {
      emit({ type: 'definitions', definitions: context.definitions.map(({ name, kind, path, line, signature, doc, container }) => ({ name, kind, path, line, signature, doc, container })) });
    }
    const files = [...new Set([...context.definitions.map((d) => d.path), ...context.hits.map((h) => h.path)])];
    if (context.text) emit({ type: 'index-context', files, tokens: context.tokens, partial: context.partial !== undefined });
    return { text: context.text, files };
  } catch (error) {
    if (signal.aborted) throw error;
    emit({ type: 'warning', message: `the code index could not be searched (${(error as Error).message}); answering without it` });
    return { text: '', files: [] };
  }
}
