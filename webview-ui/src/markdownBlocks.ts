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
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else if (afterBlank && line.trim() !== '' && !/^\s/.test(line) && current.some((l) => l.trim() !== '')) {
      blocks.push(current.join('\n'));
      current = [];
    }
    if (!fence && marker && !afterFenceClose(current, line)) fence = marker;
    afterBlank = !fence && line.trim() === '';
    current.push(line);
  }
  blocks.push(current.join('\n'));
  return blocks;
}

/** True when `line` is the closing fence just handled above (it must not reopen a fence). */
function afterFenceClose(current: string[], line: string): boolean {
  if (current.length === 0) return false;
  let open = false;
  for (const l of current) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (m) open = !open;
  }
  return open && line.trim().length > 0;
}
