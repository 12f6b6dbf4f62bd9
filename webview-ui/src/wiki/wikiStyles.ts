import { css } from 'lit';

/** An editor-sized page: toolbar on top, the page list beside the page (above it when the panel is narrow). */
export const wikiStyles = css`
  :host { display: block; padding: 8px 16px 24px; }
  .wiki-toolbar { gap: 8px; padding-bottom: 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
  h1 { font-size: 1.3em; margin: 0 auto 0 0; display: flex; align-items: center; gap: 6px; }
  .progress { display: flex; align-items: center; gap: 8px; min-width: 0; }
  .progress-label { overflow-wrap: anywhere; }
  progress { width: 160px; height: 6px; accent-color: var(--vscode-progressBar-background); }
  .notice { margin: 8px 0; padding: 4px 8px; border-left: 3px solid var(--vscode-editorInfo-foreground, var(--vscode-focusBorder)); background: var(--vscode-textBlockQuote-background); }
  .layout { display: flex; gap: 16px; align-items: flex-start; margin-top: 8px; }
  .pages { flex: 0 0 220px; position: sticky; top: 0; max-height: 100vh; overflow-y: auto; }
  .pages h2 { font-size: 0.85em; text-transform: uppercase; color: var(--vscode-descriptionForeground); margin: 10px 0 4px; }
  .pages ul { list-style: none; margin: 0; padding: 0; }
  .page-entry {
    width: 100%;
    justify-content: space-between;
    text-align: left;
    color: var(--vscode-foreground);
    background: transparent;
    border: 1px solid transparent;
    padding: 2px 6px;
  }
  .page-entry:hover { background: var(--vscode-list-hoverBackground); }
  .page-entry[aria-current='page'] {
    color: var(--vscode-list-activeSelectionForeground, var(--vscode-foreground));
    background: var(--vscode-list-activeSelectionBackground, var(--vscode-list-hoverBackground));
  }
  .page-title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
  .badge.stale { flex: none; color: var(--vscode-editorWarning-foreground); background: transparent; border: 1px solid currentColor; }
  .page-body { flex: 1 1 auto; min-width: 0; max-width: 960px; }
  .page-body a[data-href] { cursor: pointer; text-decoration: underline; }
  .page-body h1 { font-size: 1.6em; }
  .page-body h2 { font-size: 1.3em; }
  /* No toolbar above a code block here (the chat's has one), so all its corners are round. */
  .page-body pre { border-radius: 3px; margin: 0 0 0.75em; }
  .diagram-error { margin: 0 0 4px; color: var(--vscode-errorForeground); }
  @media (max-width: 600px) {
    .layout { flex-direction: column; }
    .pages { position: static; flex-basis: auto; width: 100%; max-height: none; }
  }
`;
