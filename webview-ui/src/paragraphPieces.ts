import { md, type References } from './markdownParser';
import { countMarkdownWork } from './markdownWork';

/** A piece is at least this long: each costs a sanitiser call, so one per line would cost more than it saves. */
const MIN_PIECE = 256;
/**
 * After a line end that could not close a piece, wait this much text, or a quarter of the piece if
 * more, before parsing it again: a piece that never closes (thousands of lines of emphasis openers)
 * is then parsed a bounded number of times its length, not once per line.
 */
const RETRY_AFTER = 128;
/** Characters that can pair with something on a later line when left unmatched (emphasis, strikethrough, links, code). */
const OPEN_CONSTRUCT = /[*_~[\]`]/;

/**
 * Splits a long paragraph that is still streaming into pieces that render alone exactly as they do
 * inside the whole paragraph, so a chunk re-renders only the last piece (a run of emphasised lines
 * is one paragraph: without this every chunk would re-render all of it).
 *
 * A piece ends at a line end where nothing before it is left open: after markdown-it parsed it, no
 * text holds a delimiter, bracket or backtick it did not pair (only those can reach across lines;
 * autolinks, entities and escapes cannot), so later text cannot change it. The last two lines always
 * stay in the open rest: a table delimiter row would turn the line before it into a table header.
 */
export class ParagraphPieces {
  private closedSource = '';
  private closed: string[] = [];
  /** Offset in the paragraph's content where the open rest starts. */
  private restStart = 0;
  /** Line ends before this offset have been considered. */
  private examinedTo = 0;

  /**
   * `content`: the paragraph's inline source as markdown-it has it (trimmed, lines joined with `\n`).
   * Returns the closed pieces (append-only while the paragraph grows) and the open rest.
   */
  update(content: string, references: References): { closed: readonly string[]; rest: string } {
    if (!content.startsWith(this.closedSource)) this.reset();
    const lastLine = content.lastIndexOf('\n');
    const limit = lastLine <= 0 ? 0 : content.lastIndexOf('\n', lastLine - 1) + 1;
    let from = Math.max(this.examinedTo, this.restStart + MIN_PIECE);
    for (;;) {
      const end = content.indexOf('\n', from - 1) + 1;
      if (end === 0 || end > limit) break;
      const piece = content.slice(this.restStart, end);
      if (isClosed(piece, references)) {
        this.closed.push(piece);
        this.restStart = skipIndent(content, end);
        this.closedSource = content.slice(0, this.restStart);
        from = this.restStart + MIN_PIECE;
      } else {
        from = end + Math.max(RETRY_AFTER, (end - this.restStart) >> 2);
      }
    }
    this.examinedTo = from;
    return { closed: this.closed, rest: content.slice(this.restStart) };
  }

  private reset(): void {
    this.closedSource = '';
    this.closed = [];
    this.restStart = this.examinedTo = 0;
  }
}

/** markdown-it skips the indentation of a continuation line after a line break; a piece starting there must too. */
function skipIndent(content: string, start: number): number {
  let i = start;
  while (content[i] === ' ' || content[i] === '\t') i++;
  return i;
}

function isClosed(piece: string, references: References): boolean {
  countMarkdownWork('parsed', piece.length);
  // Its own object over the definitions, never a copy: there may be thousands.
  const [inline] = md.parseInline(piece, { references: Object.create(references) as References });
  return !(inline.children ?? []).some((token) => token.type === 'text' && OPEN_CONSTRUCT.test(token.content));
}
