import { WEB_ADDRESS } from '../render/markdownText';
import { CODE_SPAN, markdownLines } from './markdownLines';

/**
 * A model's prose made safe to publish (GitHub renders the pages too, with raw HTML and links): outside code,
 * every bracket and angle bracket is escaped, so no link, image, reference definition or HTML of the model's can
 * form, however it is spelled across lines; images are dropped and web addresses become inline code (GitHub links
 * bare ones). No heading breaks the page's outline, no diagram of the model's is drawn (diagrams come from the
 * index), and no page marker it writes can pass for one of the page's own.
 */
export function safeProse(text: string): string {
  return markdownLines(text.replace(/\r\n?/g, '\n').replace(/<!--\s*codewiki:[^]*?-->/g, ''))
    .map(({ text: line, fenced, opens }) => {
      // However the info string spells it (`Mermaid`, `{mermaid}`), the model's diagram is shown as text.
      if (opens)
        return line.replace(/^( {0,3}(`{3,}|~{3,}))(.*)$/, (all, fence: string, _char: string, info: string) => (/mermaid/i.test(info) ? `${fence}text` : all));
      if (fenced) return line;
      return (
        outsideCodeSpans(line, inertPlain)
          // A heading, also inside a list item or a quote, is one the page's outline can hold.
          .replace(/^((?:\s*(?:>|[-*+]|\d{1,9}[.)])(?=\s))*\s*)#{1,2}(?=\s|$)/, '$1###')
          // A line of `=` or `-` under a paragraph (in a list item or a quote too) would make it a heading
          // (setext): escaped, it is text.
          .replace(/^((?:\s*>)*\s*)([=-]+\s*)$/, '$1\\$2')
      );
    })
    .join('\n')
    .trim();
}

/**
 * Text outside code spans: links keep their words, images go, and every character that could start markup is
 * escaped, a backtick too: one left unpaired on its line could pair with one on the next (a code span may cross
 * a line break) and put what lies between out of reach of this escaping.
 */
function inertPlain(plain: string): string {
  const words = plain
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    // A link's words stay, its target goes (the escaping below is what makes any other spelling inert).
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1');
  let out = '';
  let at = 0;
  for (const match of words.matchAll(WEB_ADDRESS)) {
    const end = match.index + match[0].length;
    // Apart from a code span beside it by a space: touching, their backticks would run together into one fence.
    const before = match.index === 0 ? ' ' : '';
    const after = end === words.length ? ' ' : '';
    out += `${escapePlain(words.slice(at, match.index))}${before}\`${match[0]}\`${after}`;
    at = end;
  }
  return out + escapePlain(words.slice(at));
}

function escapePlain(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // `!` too: before a name CodeWiki links (`![`name`](…)`) it would make the link an image.
      .replace(/[\\[\]`!]/g, (char) => `\\${char}`)
  );
}

/** Applies `change` to the parts of a line outside inline code spans. */
function outsideCodeSpans(line: string, change: (plain: string) => string): string {
  let out = '';
  let at = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    out += change(line.slice(at, match.index)) + match[0];
    at = match.index + match[0].length;
  }
  return out + change(line.slice(at));
}
