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
      if (opens) return line.replace(/^( {0,3}(`{3,}|~{3,}))\s*mermaid\b.*$/, '$1text');
      if (fenced) return line;
      return outsideCodeSpans(line, (plain) =>
        plain
          .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
          // A link's words stay, its target goes (the escaping below is what makes any other spelling inert).
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(WEB_ADDRESS, (url) => `\`${url}\``)
          .split(/(`[^`]+`)/)
          .map((part, at) => (at % 2 === 1 ? part : part.replace(/[\\[\]]/g, (char) => `\\${char}`)))
          .join(''),
      ).replace(/^ {0,3}#{1,2}(?=\s)/, '###');
    })
    .join('\n')
    .trim();
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
