import type { CodeIndex, IndexStatus } from '../codebaseIndex/codeIndexTypes';
import { abortReason } from '../util/abort';
import type { AgentEventBody } from './agentEvents';

/** How long a question waits for an index that is still building before it goes on with part of it. */
export const INDEX_WAIT_MS = 60_000;

export interface IndexedQuestion {
  /** The candidates rendered for the model, to follow the question; empty when the index found nothing. */
  text: string;
  /** Files the candidates name: the model has seen them (signatures and lines) without opening them. */
  files: string[];
}

/**
 * Before the first model call: the question's names and words are looked up in the index, the exact
 * definitions go to the user at once (cards), and the best candidates go to the model with the question.
 * A build in progress is waited for, with progress, up to INDEX_WAIT_MS; a failing index never fails the turn.
 */
export async function startFromIndex(index: CodeIndex, question: string, signal: AbortSignal, emit: (event: AgentEventBody) => void): Promise<IndexedQuestion> {
  try {
    await waitForIndex(index, signal, emit);
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

async function waitForIndex(index: CodeIndex, signal: AbortSignal, emit: (event: AgentEventBody) => void): Promise<void> {
  const status = index.status();
  if (status.state === 'ready' || status.state === 'disabled') return;
  const report = (s: IndexStatus) => emit({ type: 'index-wait', indexedFiles: s.indexedFiles, totalFiles: s.totalFiles });
  report(status);
  const unsubscribe = index.onStatus((next) => next.state === 'building' && report(next));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Not given the turn's signal: Stop ends the wait, not the build other turns and the status bar share.
    await Promise.race([
      index.update(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, INDEX_WAIT_MS))),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(abortReason(signal)), { once: true })),
    ]);
  } catch (error) {
    if (signal.aborted) throw error;
    // A failed build: the query below answers from what was indexed, and says so.
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
