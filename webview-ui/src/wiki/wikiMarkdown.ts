import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { INLINE_IMAGE, md as answerMarkdown } from '../markdownParser';
import { skipHtmlComments } from './htmlComments';

/**
 * Wiki pages are Markdown the model wrote about the workspace, so they are as untrusted as any
 * answer and get the same two locks (markdown-it with raw HTML off, then DOMPurify; remote images
 * become links, never fetched). What differs is links: a page links to other pages and to source
 * files by relative paths (`modules/x.md`, `../../src/a.ts#L12`), which the chat's parser refuses.
 * Here relative links are kept as written, but no link keeps an `href`: it becomes `data-href`, and
 * a click asks the host (`wiki/openLink`), which decides. The page can never navigate itself.
 */

/** Schemes a link may carry; anything scheme-less is relative to the page and left to the host. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** Browsers ignore these inside a URL (`java\tscript:`), so they are ignored before the scheme is read. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this matches
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u009f]/g;

export function isAllowedHref(url: string): boolean {
  const scheme = SCHEME.exec(url.replace(IGNORED_IN_URL, ''))?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(scheme.toLowerCase());
}

const wikiMarkdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
wikiMarkdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
// The host resolves the href exactly as the page wrote it; the renderer still escapes it.
wikiMarkdown.normalizeLink = (url) => url;
wikiMarkdown.validateLink = (url) => isAllowedHref(url) || INLINE_IMAGE.test(url.trim());
wikiMarkdown.renderer.rules.image = answerMarkdown.renderer.rules.image;
skipHtmlComments(wikiMarkdown);

const escape = wikiMarkdown.utils.escapeHtml;

/** A `mermaid` fence stays a code block until its diagram is drawn (`wikiDiagrams.ts`), and stays one if it cannot be. */
const codeBlock = (code: string, info: string) => {
  const lang = (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 30);
  const pre = `<pre><code${lang ? ` class="language-${lang}"` : ''}>${escape(code)}</code></pre>`;
  return lang.toLowerCase() === 'mermaid' ? `<div class="diagram-source">${pre}</div>\n` : `${pre}\n`;
};
wikiMarkdown.renderer.rules.fence = (tokens, index) => codeBlock(tokens[index].content, tokens[index].info);
wikiMarkdown.renderer.rules.code_block = (tokens, index) => codeBlock(tokens[index].content, '');

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') makeInertLink(node);
  if (node.nodeName === 'IMG' && !INLINE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
});

/** No `href` (VS Code's webview opens any clicked link that has one): the view handles the click. */
function makeInertLink(link: Element): void {
  const href = link.getAttribute('href');
  link.removeAttribute('href');
  link.removeAttribute('target');
  if (href === null) return;
  link.setAttribute('data-href', href);
  link.setAttribute('role', 'link');
  link.setAttribute('tabindex', '0');
  if (!link.hasAttribute('title')) link.setAttribute('title', href);
}

const PURIFY_CONFIG = {
  // DOMPurify's default, less the schemes no wiki link needs: http(s), mailto, or scheme-less (relative).
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
  RETURN_DOM_FRAGMENT: true as const,
};

/** A wiki page as safe, inert DOM for the view to insert; diagrams are left as `.diagram-source` blocks. */
export function renderWikiPage(markdown: string): DocumentFragment {
  return purify.sanitize(wikiMarkdown.render(markdown), PURIFY_CONFIG);
}
