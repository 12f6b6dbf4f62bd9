/** Markdown the webview handed to markdown-it: characters by kind of work, and renders. */
export interface MarkdownWork {
  /** Blocks and paragraph pieces rendered (a count, not characters). */
  renders: number;
  /** Rendered to HTML (blocks and paragraph pieces). */
  rendered: number;
  /** Parsed without rendering: top-level block splits, and paragraph pieces checked for being closed. */
  parsed: number;
}

/**
 * A test hook: counts Markdown work when the page defines `window.__cwMarkdownWork` (the webview
 * tests do; nothing else does), so a test can bound what a streamed answer costs against the same
 * answer rendered once without timing anything. A no-op otherwise.
 */
export function countMarkdownWork(kind: keyof MarkdownWork, amount: number): void {
  const work = (globalThis as { __cwMarkdownWork?: MarkdownWork }).__cwMarkdownWork;
  if (work) work[kind] += amount;
}
