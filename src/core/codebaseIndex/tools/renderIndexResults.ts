import type { CodeSearchHit, IndexStatus, SymbolDef, SymbolMatch } from '../codeIndexTypes';
import { estimateTokens } from '../../llm/tokenEstimate';

/** How the index tools' results read for a model: one `path:line` per fact, so the next read_file is obvious. */

/** A definition's kind as it is shown: `declared function` for a C prototype, a declaration without its body. */
export function kindLabel(definition: Pick<SymbolDef, 'kind' | 'declaration'>): string {
  return definition.declaration ? `declared ${definition.kind}` : definition.kind;
}

export function renderSymbolMatches(name: string, matches: SymbolMatch[]): string {
  if (matches.length === 0) return `No definition named like "${name}" in the index. Try search_code with words that describe it.`;
  const close = matches[0]!.match === 'exact' || matches[0]!.match === 'case' ? '' : `No definition is named exactly "${name}"; the closest:\n`;
  return (
    close +
    matches
      .map((m) => `${m.path}:${m.line}  ${kindLabel(m)} ${m.container ? `${m.container}.` : ''}${m.name}: ${m.signature}${m.doc ? ` — ${m.doc}` : ''}`)
      .join('\n')
  );
}

export function renderCodeSearch(query: string, hits: CodeSearchHit[], maxTokens: number): string {
  if (hits.length === 0) return `Nothing in the index matches "${query}". Try other words, find_symbol with a name, or search_text for exact text.`;
  let text = '';
  let shown = 0;
  for (const hit of hits) {
    const lines = [
      ...hit.symbols.map((symbol) => `  ${symbol.line}: ${symbol.signature}`),
      ...hit.lines.map((line) => `  ${line.line}${line.within ? ` (in ${line.within})` : ''}: ${line.text}`),
    ];
    const block = [hit.path, ...lines].join('\n');
    if (shown > 0 && estimateTokens(`${text}\n${block}`) > maxTokens) break;
    text += `${text ? '\n' : ''}${block}`;
    shown++;
  }
  return shown < hits.length ? `${text}\n(${hits.length - shown} more files ranked lower; narrow the query or pass path)` : text;
}

/** Said after results while the index is incomplete, so "not found" is read as "not found yet". */
export function partialNote(status: IndexStatus): string {
  if (status.state !== 'building') return '';
  const of = status.totalFiles ? ` of ${status.totalFiles.toLocaleString('en-US')}` : '';
  return `\n(The code index is still being built: ${status.indexedFiles.toLocaleString('en-US')}${of} files so far.)`;
}
