import MarkdownIt from 'markdown-it';
import { glyph } from './icons';

/**
 * The one markdown-it configuration for model output, without any DOM so Node tests can use it.
 * Model output is untrusted (a workspace file can inject instructions into it): markdown-it never
 * passes raw HTML through (`html: false`), links may only be http(s), mailto or in-page anchors
 * (no javascript:, command:, vscode:, data:text/html), and a remote image is never fetched: it
 * becomes a link the user may choose to open (security.md #5). DOMPurify is the second lock
 * (`markdown.ts`).
 */
export const SAFE_HREF = /^(?:https?:|mailto:|#)/i;
export const INLINE_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);/i;

export const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
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

/** Link reference definitions by normalised label, as markdown-it keeps them in `env.references`. */
export type References = Record<string, { href: string; title: string }>;
