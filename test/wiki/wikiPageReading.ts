import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';

/**
 * Reads the wiki's pages the way a reader's Markdown renderer does (markdown-it, raw HTML on as on GitHub),
 * so tests assert on links, images and HTML as rendered, not on how the source happens to be spelled.
 */
// linkify on: GitHub turns bare web addresses in text into links, and so must a test of what a page links to.
const markdown = new MarkdownIt({ html: true, linkify: true });

export interface PageLink {
  /** The link's visible text (code spans included, without their backticks). */
  text: string;
  href: string;
}

export interface RenderedPage {
  links: PageLink[];
  images: string[];
  /** Raw HTML the page would put into the document, other than CodeWiki's own marker comments. */
  html: string[];
  /** The page as HTML. */
  rendered: string;
}

export function renderPage(text: string): RenderedPage {
  const tokens = markdown.parse(text, {});
  const links: PageLink[] = [];
  const images: string[] = [];
  const html: string[] = [];
  for (const token of tokens) {
    if (token.type === 'html_block' && !isMarkerComment(token.content)) html.push(token.content);
    let open: PageLink | undefined;
    for (const child of token.children ?? []) {
      if (child.type === 'link_open') links.push((open = { text: '', href: String(child.attrGet('href') ?? '') }));
      else if (child.type === 'link_close') open = undefined;
      else if (child.type === 'image') images.push(String(child.attrGet('src') ?? ''));
      else if (child.type === 'html_inline') html.push(child.content);
      else if (open && (child.type === 'text' || child.type === 'code_inline')) open.text += child.content;
    }
  }
  return { links, images, html, rendered: markdown.render(text) };
}

function isMarkerComment(content: string): boolean {
  return content
    .trim()
    .split('\n')
    .every((line) => /^<!-- codewiki:[a-z]+[ :][^\n]*-->$/.test(line.trim()) || line.trim() === '');
}

/** Every page in the wiki folder, by its path inside the folder (`index.md`, `modules/x.md`). */
export function readWikiPages(wikiDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  if (existsSync(join(wikiDir, 'index.md'))) pages.set('index.md', readFileSync(join(wikiDir, 'index.md'), 'utf8'));
  const modules = join(wikiDir, 'modules');
  if (existsSync(modules)) for (const name of readdirSync(modules).sort()) pages.set(`modules/${name}`, readFileSync(join(modules, name), 'utf8'));
  return pages;
}

/** Each page's modification time, to tell which pages a run rewrote. */
export function pageTimes(wikiDir: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const page of readWikiPages(wikiDir).keys()) times.set(page, statSync(join(wikiDir, page)).mtimeMs);
  return times;
}

/** Where a relative link from a page leads on disk, and the line it names (`#L12`). */
export function linkTarget(wikiDir: string, page: string, href: string): { path: string; line?: number } {
  const [path, fragment] = href.split('#');
  const decoded = path!
    .split('/')
    .map((segment) => decodeURIComponent(segment))
    .join('/');
  const line = fragment && /^L\d+$/.test(fragment) ? Number(fragment.slice(1)) : undefined;
  return { path: resolve(dirname(join(wikiDir, page)), decoded), ...(line === undefined ? {} : { line }) };
}

/** The Mermaid blocks of a page, each as its lines between the fences. */
export function mermaidBlocks(text: string): string[][] {
  return [...text.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((match) => match[1]!.split('\n'));
}

/** A diagram's boxes (id to label) and arrows (as label pairs). */
export function readDiagram(lines: string[]): { labels: Map<string, string>; edges: Array<[string, string]> } {
  const labels = new Map<string, string>();
  const edges: Array<[string, string]> = [];
  for (const line of lines) {
    const box = /^ {2}(m\d+)\["([^"]*)"\]$/.exec(line);
    if (box) labels.set(box[1]!, box[2]!);
    const arrow = /^ {2}(m\d+) --> (m\d+)$/.exec(line);
    if (arrow) edges.push([labels.get(arrow[1]!) ?? arrow[1]!, labels.get(arrow[2]!) ?? arrow[2]!]);
  }
  return { labels, edges };
}

/** Whether a line of TypeScript defines `name`: a class, interface, type or function, or a method (a name at the start of an indented line, then its parameters). */
export function definesName(line: string, name: string): boolean {
  return new RegExp(`\\b(?:class|interface|type|function)\\s+${name}\\b|^\\s+${name}\\(`).test(line);
}
