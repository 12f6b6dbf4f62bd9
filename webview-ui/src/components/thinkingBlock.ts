import { css, html, nothing } from 'lit';
import { icon } from './cwElement';

/** A reasoning model's thinking: its own collapsed block, never mixed into the answer's Markdown. */
export const thinkingStyles = css`
  details.reasoning { margin: 2px 4px; }
  details.reasoning summary { cursor: pointer; color: var(--vscode-descriptionForeground); }
  pre.reasoning-text { margin: 4px 0; max-height: 16em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-family: inherit; font-style: italic;
    color: var(--vscode-descriptionForeground); }
`;

/**
 * Collapsed by default, as Agent mode shows it; plain text (the model's thinking is untrusted and
 * often half-formed Markdown), so a stray fence or link in it cannot restyle the page.
 */
export function renderThinking(reasoning: string | undefined) {
  if (!reasoning) return nothing;
  return html`<details class="reasoning"><summary>${icon('lightbulb')} Thinking</summary><pre class="reasoning-text">${reasoning}</pre></details>`;
}
