/**
 * An answer stopped at its token cap ends mid-sentence ("It allows developers to specify the columns they"): the
 * page keeps it up to its last finished sentence. A paragraph that has none ends as the model left it.
 */
export function withoutUnfinishedSentence(prose: string): string {
  const text = prose.trimEnd();
  const lines = text.split('\n');
  if (/[.!?:;)`"'*_|]$/.test(text) || /^\s*(```|~~~)/.test(lines.at(-1)!)) return text;
  // A list's unfinished last item goes alone.
  if (lines.length > 1 && /^\s*([-*+]|\d+[.)])\s/.test(lines.at(-1)!)) return lines.slice(0, -1).join('\n').trimEnd();
  const lastEnd = Math.max(text.lastIndexOf('. '), text.lastIndexOf('.\n'), text.lastIndexOf('! '), text.lastIndexOf('? '));
  const paragraphStart = text.lastIndexOf('\n\n');
  if (lastEnd < 0) return paragraphStart > 0 ? text.slice(0, paragraphStart) : text;
  // Cutting inside the last paragraph keeps its finished sentences; when it has none, the paragraph goes.
  return lastEnd > paragraphStart ? text.slice(0, lastEnd + 1) : text.slice(0, Math.max(paragraphStart, 0)) || text;
}
