/**
 * Splits Markdown into top-level blocks at blank lines outside code fences, where the next line
 * starts in column 0 (so list continuations and indented code stay whole). While an answer streams,
 * every block but the last is final: it is rendered once and cached, and only the tail re-renders
 * per frame, which keeps a long answer's cost per chunk flat.
 */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  let afterBlank = false;
  let hasContent = false;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      current.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    const blank = line.trim() === '';
    if (afterBlank && !blank && !/^\s/.test(line) && hasContent) {
      blocks.push(current.join('\n'));
      current = [];
      hasContent = false;
    }
    current.push(line);
    hasContent ||= !blank;
    if (marker) fence = marker;
    afterBlank = blank;
  }
  blocks.push(current.join('\n'));
  return blocks;
}
