import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { CodeIndex, QuestionContextOptions } from '../codebaseIndex/codeIndexTypes';
import { waitForIndex } from '../codebaseIndex/waitForIndex';
import type { AgentEventBody } from './agentEvents';
import type { WikiOverviews } from './agentLoopTypes';

/** The id of the search CodeWiki makes for the model before its first turn. */
export const INDEX_CALL_ID = 'codewiki_index_search';

export interface IndexedQuestion {
  /** The matches as a list, best first; empty when the index found nothing. */
  list: string;
  /** Files the matches name: the model has seen them (signatures and lines) without opening them. */
  files: string[];
}

/**
 * Before the first model call: the question's names and words are looked up in the index, the exact
 * definitions go to the user at once (cards), and the best matches go to the model with the question.
 * A build in progress is waited for, with progress (waitForIndex.ts); a failing index never fails the turn.
 */
export async function startFromIndex(
  index: CodeIndex,
  question: string,
  signal: AbortSignal,
  emit: (event: AgentEventBody) => void,
  detail: QuestionContextOptions['detail'] = 'full',
): Promise<IndexedQuestion> {
  try {
    await waitForIndex(index, { signal, onProgress: (s) => emit({ type: 'index-wait', indexedFiles: s.indexedFiles, totalFiles: s.totalFiles }) });
    const context = await index.questionContext(question, { detail });
    if (context.definitions.length) {
      emit({
        type: 'definitions',
        definitions: context.definitions.map(({ name, kind, path, line, signature, doc, container, declaration }) => ({
          name,
          kind,
          path,
          line,
          signature,
          doc,
          container,
          ...(declaration && { declaration }),
        })),
      });
    }
    const files = [...new Set([...context.definitions.map((d) => d.path), ...context.hits.map((h) => h.path)])];
    if (context.text) emit({ type: 'index-context', files, tokens: context.tokens, partial: context.partial !== undefined });
    return { list: context.text, files };
  } catch (error) {
    if (signal.aborted) throw error;
    emit({ type: 'warning', message: `the code index could not be searched (${(error as Error).message}); answering without it` });
    return { list: '', files: [] };
  }
}

/** A question about how or why something works, which a module's overview helps answer (not "where is X", which the matches answer). */
const HOW_QUESTION = /\b(how|why|explain|overview|architecture|design|flow|works?|purpose|responsib\w*)\b/i;

/**
 * The wiki's overview of the module the best match is in, for a "how does X work" question: written once
 * (and checked against the code) when the wiki was generated, so the model need not read the module again. It goes
 * before the matches, which end the message: a small model answers from what it read last (measured on gin: with the
 * overview after the matches, the 1.5B default echoed its heading as the answer).
 */
export async function wikiOverviewFor(wiki: WikiOverviews | undefined, question: string, files: readonly string[]): Promise<string> {
  if (!wiki || !files[0] || !HOW_QUESTION.test(question)) return '';
  const overview = await wiki.overviewFor(files[0]).catch(() => undefined);
  if (!overview) return '';
  return `Background from the project wiki (${overview.page}, about ${overview.module === '.' ? 'the top level' : overview.module}):\n${overview.text}\n\n`;
}

const ANSWER_FROM_THEM =
  'If one of these answers the question, name that one file and line (path:line) and say in a sentence what is there; if none does, call a tool.';

/**
 * The matches as the model best uses them: the result of a search_code call CodeWiki made for it, after the
 * question, since a small model answers from a tool result and echoes or continues text in the question
 * itself (measured on Qwen2.5-Coder 1.5B: the list in the question came back as the answer). The call is
 * shown to the user like any other (events), so nothing the model was given is hidden.
 */
export function indexSearchExchange(query: string, list: string, background = ''): BaseMessage[] {
  const content = `${background}Best matches in the code index for the question, best first (path:line: what is there):\n${list}\n${ANSWER_FROM_THEM}`;
  return [
    new AIMessage({ content: '', tool_calls: [{ id: INDEX_CALL_ID, name: 'search_code', args: { query }, type: 'tool_call' }] }),
    new ToolMessage({ content, tool_call_id: INDEX_CALL_ID, name: 'search_code' }),
  ];
}

/** Without search_code on offer, the matches go before the question instead. */
export function indexMatchesBeforeQuestion(list: string, background = ''): string {
  return `${background}CodeWiki's code index matched these to the question below, best match first (path:line: what is there):\n${list}\n${ANSWER_FROM_THEM.replace('call a tool', 'use the tools')}\n\n`;
}
