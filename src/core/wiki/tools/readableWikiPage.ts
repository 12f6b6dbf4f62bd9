import { estimateTokens } from '../../llm/tokenEstimate';

/** About a screen of a page: enough for what a module is for and where its key definitions are. */
const MAX_TOKENS = 1_500;

/**
 * A page as the agent reads it: without the metadata comment, the markers and the notes invitation, the
 * diagram (Mermaid says nothing a list of dependencies does not), and cut to a budget.
 */
export function readableWikiPage(page: string, generated: boolean): string {
  let text = page
    .replace(/^<!-- codewiki:page .* -->\n/, '')
    .replace(/<!-- codewiki:[a-z]+:(start|end) -->\n?/g, '')
    .replace(/```mermaid[\s\S]*?```\n?/g, '')
    .replace(/## Diagram\n+/g, '')
    .replace(/_Notes written between these markers are kept when the page is regenerated._\n?/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (estimateTokens(text) > MAX_TOKENS) {
    const lines = text.split('\n');
    while (lines.length > 1 && estimateTokens(lines.join('\n')) > MAX_TOKENS) lines.pop();
    text = `${lines.join('\n')}\n… (page cut)`;
  }
  return generated ? text : `${text}\n\n(The wiki is not generated yet; this page was drawn from the code index just now.)`;
}
