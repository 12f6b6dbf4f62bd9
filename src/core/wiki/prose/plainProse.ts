import { NO_PROSE_YET } from '../render/modulePage';

/** How the attribution line under a page's prose starts (`_Written by <model> for commit <sha>._`). */
const ATTRIBUTION = '_Written by';

/**
 * A page's prose section as plain text, for a prompt or an answer rather than a page: without its
 * attribution line, with Markdown links reduced to their text (their targets are line addresses
 * that mean nothing outside the wiki) and the page's escapes undone. Undefined when there is no prose or only the placeholder.
 */
export function plainProse(prose: string | undefined): string | undefined {
  if (!prose || prose === NO_PROSE_YET) return undefined;
  return (
    prose
      .split('\n')
      .filter((line) => !line.startsWith(ATTRIBUTION))
      .join('\n')
      .replace(/(?<!\\)\[([^\]]*)\]\([^)]*\)/g, '$1')
      // What safeProse escaped for the page reads as the model wrote it.
      .replace(/\\([\\[\]`!])/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .trim()
  );
}
