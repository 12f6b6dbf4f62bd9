/** A line of Markdown and whether it belongs to a fenced code block (its fence lines included). */
export interface MarkdownLine {
  text: string;
  fenced: boolean;
  /** The line that opens a fence (its info string says the language). */
  opens?: true;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Lines with CommonMark's fence rule: a fence opens with three or more backticks or tildes indented at most three
 * spaces, and only a line of the same character, at least as long, indented at most three spaces, closes it. A naive
 * toggle on any ``` line can be steered (an indented fence, ~~~ around ```), and what it takes for code would then
 * escape the rules applied to text.
 */
export function markdownLines(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let open: { char: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    if (open) {
      const closing = new RegExp(`^ {0,3}${open.char === '`' ? '`' : '~'}{${open.length},}\\s*$`).test(line);
      lines.push({ text: line, fenced: true });
      if (closing) open = undefined;
      continue;
    }
    const fence = OPENING.exec(line);
    // A backtick fence's info string may not contain a backtick (then it is inline code, not a fence).
    if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      open = { char: fence[1]![0]!, length: fence[1]!.length };
      lines.push({ text: line, fenced: true, opens: true });
      continue;
    }
    lines.push({ text: line, fenced: false });
  }
  // A fence the text leaves open would swallow the rest of the page: close it.
  if (open) lines.push({ text: open.char.repeat(open.length), fenced: true });
  return lines;
}

/** Inline code spans: a run of backticks (not escaped), text without backticks, the same run again. */
export const CODE_SPAN = /(?<![`\\])(`+)(?!`)([^`]+?)\1(?!`)/g;
