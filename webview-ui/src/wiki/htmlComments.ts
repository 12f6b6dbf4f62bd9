import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';

/**
 * Generated pages carry HTML comments as markers (`<!-- codewiki:notes:start -->`). With raw HTML
 * off, markdown-it would print them as text; these rules drop them instead, as a browser would.
 * A comment inside a code span or block is code and stays.
 */
export function skipHtmlComments(md: MarkdownIt): void {
  md.block.ruler.before('paragraph', 'html_comment_block', commentBlock, { alt: ['paragraph', 'reference', 'blockquote'] });
  md.inline.ruler.before('text', 'html_comment_inline', commentInline);
}

/** Lines from one starting with `<!--` to the one holding `-->`, with nothing after it. */
function commentBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const lineText = (line: number) => state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
  if (!lineText(startLine).startsWith('<!--')) return false;
  for (let line = startLine; line < endLine; line++) {
    const text = line === startLine ? lineText(line).slice(4) : lineText(line);
    const close = text.indexOf('-->');
    if (close === -1) continue;
    if (text.slice(close + 3).trim() !== '') return false;
    if (!silent) state.line = line + 1;
    return true;
  }
  return false;
}

/** `<!-- … -->` inside a paragraph. */
function commentInline(state: StateInline): boolean {
  if (!state.src.startsWith('<!--', state.pos)) return false;
  const close = state.src.indexOf('-->', state.pos + 4);
  if (close === -1) return false;
  // Silent or not, a rule that matches must move past what it matched (markdown-it checks).
  state.pos = close + 3;
  return true;
}
