import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { glyph } from './icons';
import { splitBlocks } from './markdownBlocks';

/**
 * Model output is untrusted (a workspace file can inject instructions into it), so rendering is
 * two locks: markdown-it never passes raw HTML through, and DOMPurify cleans what it produced.
 * Links may only be http(s) or mailto (no javascript:, command:, vscode:, data:text/html), and a
 * remote image is never fetched: it becomes a link the user may choose to open (security.md #5).
 */
const SAFE_HREF = /^(?:https?:|mailto:|#)/i;
const INLINE_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
md.validateLink = (url) => SAFE_HREF.test(url.trim()) || INLINE_IMAGE.test(url.trim());

const escape = md.utils.escapeHtml;

md.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index];
  const src = String(token.attrGet('src') ?? '');
  const alt = escape(self.renderInlineAsText(token.children ?? [], options, env));
  if (INLINE_IMAGE.test(src)) return `<img src="${escape(src)}" alt="${alt}">`;
  const label = alt || 'image';
  return `<a class="remote-image" href="${escape(src)}" title="Remote image not loaded: ${escape(src)}"><span class="codicon" data-icon="${glyph('file-media')}"></span>${label}</a>`;
};

const codeBlock = (code: string, info: string) => {
  const lang = (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 30);
  const cls = lang ? ` class="language-${lang}"` : '';
  return `<cw-code-block data-lang="${lang}"><pre><code${cls}>${escape(code)}</code></pre></cw-code-block>\n`;
};
md.renderer.rules.fence = (tokens, index) => codeBlock(tokens[index].content, tokens[index].info);
md.renderer.rules.code_block = (tokens, index) => codeBlock(tokens[index].content, '');

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    const href = node.getAttribute('href');
    if (href !== null && !SAFE_HREF.test(href)) node.removeAttribute('href');
    if (node.hasAttribute('href')) node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.nodeName === 'IMG' && !INLINE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
});

const PURIFY_CONFIG = {
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  CUSTOM_ELEMENT_HANDLING: { tagNameCheck: /^cw-code-block$/, attributeNameCheck: /^data-lang$/, allowCustomizedBuiltInElements: false },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
};

export function toSafeHtml(markdown: string): string {
  return purify.sanitize(md.render(markdown), PURIFY_CONFIG);
}

/** Rendered HTML by source text (a message or one of its blocks): re-rendering or scrolling back never re-parses. */
const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

export function renderMarkdown(markdown: string): string {
  const hit = cache.get(markdown);
  if (hit !== undefined) {
    cache.delete(markdown); // refresh its place: the map's order is the eviction order
    cache.set(markdown, hit);
    return hit;
  }
  const html = toSafeHtml(markdown);
  cache.set(markdown, html);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return html;
}

/** A link reference definition (`[id]: url`) may serve any block, so such a text renders as a whole. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

/**
 * An answer renders block by block (see `splitBlocks`): finished blocks come from the cache, and
 * while streaming only the growing tail is rendered (and not cached). Because the finished answer
 * uses the same blocks, the end of a stream changes nothing on screen and costs nothing.
 */
export function renderMarkdownBlocks(markdown: string, streaming: boolean): string[] {
  if (!streaming && REFERENCE_DEFINITION.test(markdown)) return [renderMarkdown(markdown)];
  const blocks = splitBlocks(markdown);
  return blocks.map((block, i) => (streaming && i === blocks.length - 1 ? toSafeHtml(block) : renderMarkdown(block)));
}
