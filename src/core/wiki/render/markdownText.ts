/**
 * Text from the code (doc comments, names, signatures) or from a model, made inert in Markdown: it can
 * never become a link, an image, raw HTML or a heading on GitHub or in the wiki view (security.md #5).
 */

// eslint-disable-next-line no-control-regex -- control and bidirectional characters are exactly what this removes
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What GitHub or a linkifier would turn into a link: a scheme, `//host`, `www.`, an e-mail address. */
export const WEB_ADDRESS = /(?:\b[a-z][a-z0-9+.-]*:\/\/|(?<![\w/])\/\/(?=[\w-]+\.)|\bwww\.)[^\s`()<>[\]]+|[\w.+-]+@[\w-]+\.[\w.-]+/gi;

/**
 * Plain text inside a paragraph or list item: every character Markdown gives meaning to is escaped, and web
 * addresses become inline code, which GitHub does not turn into links (it links bare `https://…` in text).
 */
export function inertText(text: string): string {
  const clean = text.replace(CONTROL, '');
  const parts: string[] = [];
  let at = 0;
  for (const match of clean.matchAll(WEB_ADDRESS)) {
    parts.push(escapeText(clean.slice(at, match.index)), inlineCode(match[0]));
    at = match.index + match[0].length;
  }
  parts.push(escapeText(clean.slice(at)));
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function escapeText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+!|~&]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : `\\${char}`));
}

/** Inline code that holds any text: the fence is longer than the longest run of backticks inside. */
export function inlineCode(text: string): string {
  const clean = text.replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** A link's visible text (inline code) and its target, which the wiki itself computed (never text from the code). */
export function codeLink(label: string, href: string): string {
  return `[${inlineCode(label)}](${href})`;
}

/** Shortened to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
