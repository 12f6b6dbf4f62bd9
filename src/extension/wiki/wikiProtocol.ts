/**
 * The wiki panel's protocol (CodeWiki: Open Wiki). The page keeps the same shapes in
 * webview-ui/src/wiki/wikiMessages.ts; here every message from the page is validated before it is
 * used (security.md #6), because the page shows Markdown a model wrote about the workspace.
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

export interface WikiStateMessage {
  type: 'wiki/state';
  pages: WikiPageEntry[];
  current?: { path: string; markdown: string };
  generating?: WikiProgress | null;
  notice?: string;
}

export type HostToWiki = WikiStateMessage;

/** A page path as the page may send it back: short, relative, no NUL. Whether it names a page is checked against the list. */
const pagePath = z
  .string()
  .min(1)
  .max(500)
  .refine((path) => !path.includes('\0'), 'NUL byte');

export const wikiToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('wiki/ready') }),
  z.strictObject({ type: z.literal('wiki/openLink'), page: pagePath, href: z.string().min(1).max(2_000) }),
  z.strictObject({ type: z.literal('wiki/generate') }),
  z.strictObject({ type: z.literal('wiki/stop') }),
  z.strictObject({ type: z.literal('wiki/showPage'), path: pagePath }),
]);

export type WikiToHost = z.infer<typeof wikiToHostSchema>;
