/**
 * A model's prose made safe to publish: no image (nothing is fetched), no link it wrote (links come only
 * from the wiki, to files that exist), no raw HTML, no bare URL that GitHub would turn into a link, no
 * heading that would break the page's outline, and no diagram of its own (diagrams come from the index).
 */
export function safeProse(text: string): string {
  let inFence = false;
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const fence = /^(\s*)(```|~~~)\s*(\S*)/.exec(line);
      if (fence) {
        inFence = !inFence;
        return inFence && fence[3] ? `${fence[1]}${fence[2]}text` : line;
      }
      if (inFence) return line;
      return outsideCodeSpans(line, (plain) =>
        plain
          .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/\b(?:https?:\/\/|www\.)[^\s`]+/gi, (url) => `\`${url}\``),
      )
        .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/, '')
        .replace(/^#{1,2}(?=\s)/, '###');
    })
    .join('\n')
    .trim();
}

/** Applies `change` to the parts of a line outside inline code spans. */
function outsideCodeSpans(line: string, change: (plain: string) => string): string {
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, index) => (index % 2 === 1 ? part : change(part)))
    .join('');
}
