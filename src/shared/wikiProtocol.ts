/**
 * The wiki panel's protocol (CodeWiki: Open Wiki). The host validates every message from the page
 * (security.md #6), because the page shows Markdown a model wrote about the workspace. The page
 * imports types only.
 */
import { z } from 'zod';

/** One page of the wiki folder; `path` is relative to it, e.g. `index.md`, `modules/src-core-engine.md`. */
export interface WikiPageEntry {
  path: string;
  title: string;
  /** The code it describes changed since it was written. */
  stale?: boolean;
}

/** Generation in progress: the page shows "label (done/total)" with a Stop button. */
export interface WikiProgress {
  done: number;
  total: number;
  label: string;
}

/** The whole state, sent on `wiki/ready` and after every change. */
export interface WikiStateMessage {
  type: 'wiki/state';
  pages: WikiPageEntry[];
  /** The page shown, as Markdown. */
  current?: { path: string; markdown: string };
  /** Non-null while generation runs. */
  generating?: WikiProgress | null;
  /** One line, e.g. "No wiki yet: Generate Wiki builds it", or an error. */
  notice?: string;
}

export type HostToWiki = WikiStateMessage;

/** A page path as the page may send it back: short, relative, no NUL. Whether it names a page is checked against the list. */
const pagePath = z
  .string()
  .min(1)
  .max(500)
  .refine((path) => !path.includes('\0'), 'NUL byte');

/** Every message the wiki page may send. Strict: unknown fields are rejected. */
export const wikiToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('wiki/ready') }),
  /** A link in the page was clicked: `page` is the current page's path, `href` the link as written in the Markdown. */
  z.strictObject({ type: z.literal('wiki/openLink'), page: pagePath, href: z.string().min(1).max(2_000) }),
  z.strictObject({ type: z.literal('wiki/generate') }),
  z.strictObject({ type: z.literal('wiki/stop') }),
  z.strictObject({ type: z.literal('wiki/showPage'), path: pagePath }),
]);

export type WikiToHost = z.infer<typeof wikiToHostSchema>;
