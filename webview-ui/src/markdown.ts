import DOMPurify from 'dompurify';
import { INLINE_IMAGE, md, SAFE_HREF } from './markdownParser';
import { countMarkdownWork } from './markdownWork';
import { shapeOf } from './morphDom';
import { RecentlyUsed } from './recentlyUsed';
import { type MarkdownRenderer, type RenderedBlock, type RenderJob, StreamedMarkdown } from './streamedMarkdown';

/**
 * Safe HTML from untrusted Markdown: two locks. markdown-it never passes raw HTML through and
 * refuses unsafe links (`markdownParser.ts`); DOMPurify then cleans what it produced, keeps only
 * http(s)/mailto/anchor links (made `noopener noreferrer`) and drops any image that is not an
 * inline data: image, so nothing remote is fetched (security.md #5).
 */
const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    const href = node.getAttribute('href');
    if (href !== null && !SAFE_HREF.test(href)) node.removeAttribute('href');
    if (node.hasAttribute('href')) node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.nodeName === 'IMG' && !INLINE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
});

// Set once: parsing the configuration on every call would cost about as much as cleaning a small block.
purify.setConfig({
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  CUSTOM_ELEMENT_HANDLING: { tagNameCheck: /^cw-code-block$/, attributeNameCheck: /^data-lang$/, allowCustomizedBuiltInElements: false },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
});

export function toSafeHtml(markdown: string): string {
  return purify.sanitize(md.render(markdown));
}

/** Parses without running or fetching anything: a template's content is inert. */
function parseInert(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/**
 * Shapes (`shapeOf`) of DOM that DOMPurify returned. DOMPurify decides from elements and
 * attributes, never from the text of text nodes, so new DOM of an approved shape is what it would
 * return; and the view imports these nodes, never serialising and parsing them again, so text stays
 * text. A streamed frame then usually skips the sanitiser, which builds a whole document per call.
 */
const approvedShapes = new RecentlyUsed<true>(1000);

/** Safe DOM for markdown-it's `html`, for the view to import. */
function toSafeDom(html: string): DocumentFragment {
  const fresh = parseInert(html);
  if (approvedShapes.get(shapeOf(fresh))) return fresh;
  const safe = parseInert(purify.sanitize(html));
  approvedShapes.set(shapeOf(safe), true);
  return safe;
}

/** `job.references` is the job's own (see `MarkdownRenderer.block`): markdown-it gets it as it is. */
function toHtml(job: RenderJob): string {
  countMarkdownWork('renders', 1);
  countMarkdownWork('rendered', job.source.length);
  return (job.kind === 'block' ? md.render : md.renderInline).call(md, job.source, { references: job.references });
}

const safeRenderer: MarkdownRenderer<DocumentFragment> = {
  block: (source, references) => toSafeDom(toHtml({ kind: 'block', source, references })),
  inline: (source, references) => toSafeDom(toHtml({ kind: 'inline', source, references })),
  many: (jobs) => toSafeDoms(jobs.map(toHtml)),
};

/**
 * Several pieces of markdown-it's HTML parsed in one go, each inside its own `<template>` (whose
 * content becomes its own inert fragment): parsing has a fixed cost that a frame of many small
 * blocks would otherwise pay per block. markdown-it escapes every `<` of the source, so no piece can
 * close its wrapper; each fragment still goes through the approved-shape check of `toSafeDom`.
 */
function toSafeDoms(pieces: string[]): DocumentFragment[] {
  if (pieces.length === 1) return [toSafeDom(pieces[0])];
  const wrappers = parseInert(pieces.map((html) => `<template>${html}</template>`).join('')).children;
  return pieces.map((html, i) => {
    const fresh = (wrappers[i] as HTMLTemplateElement | undefined)?.content;
    return fresh && approvedShapes.get(shapeOf(fresh)) ? fresh : toSafeDom(html);
  });
}

/** Notices by text: re-rendering the list never re-parses. */
const notices = new RecentlyUsed<string>(200);

export function renderMarkdown(markdown: string): string {
  let html = notices.get(markdown);
  if (html === undefined) notices.set(markdown, (html = toSafeHtml(markdown)));
  return html;
}

/** Finished answers by text: a message shown again (scrolling back, reopening a conversation) never re-parses. */
const answers = new RecentlyUsed<Array<RenderedBlock<DocumentFragment>>>(200);

/**
 * A renderer for one message's text, returning its blocks. While the message streams, only its
 * open block renders per chunk (`StreamedMarkdown`). A finished answer shown afresh has no use for
 * blocks: it renders whole, in one pass, and is kept in a cache.
 */
export function createAnswerRenderer(): (text: string, streaming: boolean) => ReadonlyArray<RenderedBlock<DocumentFragment>> {
  const stream = new StreamedMarkdown(safeRenderer);
  return (text, streaming) => {
    // An empty answer (one about to stream, or retried under the same id) is no blocks, so the view
    // takes away whatever it showed before.
    if (!text) return [];
    if (streaming || stream.started) return stream.render(text, streaming);
    let blocks = answers.get(text);
    if (blocks === undefined) answers.set(text, (blocks = [{ source: text, content: safeRenderer.block(text, {}), lookups: [], version: 0 }]));
    return blocks;
  };
}
