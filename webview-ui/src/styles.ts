import { css } from 'lit';

/**
 * Shared styles. Colours, fonts and borders come only from VS Code's `--vscode-*` theme variables so
 * the view follows light, dark and high-contrast themes; `contrastBorder`/`contrastActiveBorder` are
 * only set by high-contrast themes, where they draw the outlines those themes rely on.
 */
export const baseStyles = css`
  :host {
    box-sizing: border-box;
    color: var(--vscode-foreground);
    font-family: var(--vscode-font-family);
    font-size: var(--vscode-font-size);
    font-weight: var(--vscode-font-weight);
  }
  *, *::before, *::after { box-sizing: inherit; }
  [hidden] { display: none !important; }

  .codicon::before {
    content: attr(data-icon);
    font: normal normal normal 16px/1 codicon;
    display: inline-block;
    vertical-align: text-bottom;
    -webkit-font-smoothing: antialiased;
    user-select: none;
  }
  .codicon.spin::before { animation: spin 1.5s steps(30) infinite; }
  @keyframes spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .codicon.spin::before { animation: none; } }

  button {
    font: inherit;
    color: var(--vscode-button-foreground);
    background: var(--vscode-button-background);
    border: 1px solid var(--vscode-button-border, transparent);
    border-radius: 2px;
    padding: 4px 10px;
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    gap: 4px;
  }
  button:hover { background: var(--vscode-button-hoverBackground); }
  button:focus-visible, input:focus, textarea:focus, select:focus, [tabindex]:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: -1px;
  }
  button:disabled { opacity: 0.5; cursor: default; }
  button.secondary {
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
  }
  button.secondary:hover { background: var(--vscode-button-secondaryHoverBackground); }
  button.icon {
    color: var(--vscode-icon-foreground);
    background: transparent;
    border: 1px solid transparent;
    padding: 2px 4px;
  }
  button.icon:hover { background: var(--vscode-toolbar-hoverBackground); outline: 1px dashed var(--vscode-contrastActiveBorder); }

  input, textarea, select {
    font: inherit;
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, transparent);
    border-radius: 2px;
    padding: 4px 6px;
    width: 100%;
  }
  select {
    color: var(--vscode-dropdown-foreground);
    background: var(--vscode-dropdown-background);
    border-color: var(--vscode-dropdown-border);
  }
  input[type='checkbox'] { width: auto; accent-color: var(--vscode-checkbox-background); }
  ::placeholder { color: var(--vscode-input-placeholderForeground); }

  a { color: var(--vscode-textLink-foreground); }
  a:hover { color: var(--vscode-textLink-activeForeground); }
  .muted { color: var(--vscode-descriptionForeground); }
  .error-text { color: var(--vscode-errorForeground); }
  .badge {
    color: var(--vscode-badge-foreground);
    background: var(--vscode-badge-background);
    border-radius: 8px;
    padding: 0 6px;
    font-size: 0.85em;
  }
  .error-box {
    border: 1px solid var(--vscode-inputValidation-errorBorder);
    background: var(--vscode-inputValidation-errorBackground);
    padding: 6px 8px;
    border-radius: 2px;
    min-width: 0;
  }
  /* In a narrow sidebar the button goes under the message rather than being squeezed or cut off. */
  .error-box { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: flex-start; }
  .error-box .error-message { flex: 1 1 12em; min-width: 0; overflow-wrap: anywhere; }
  .error-box > button { flex: none; margin-left: auto; white-space: nowrap; }
  .toolbar { display: flex; gap: 2px; flex-wrap: wrap; align-items: center; }
`;

/** Rendered Markdown (answers, help) inside a message's shadow root. */
export const markdownStyles = css`
  .markdown { overflow-wrap: anywhere; line-height: 1.45; }
  /* Space sits below blocks (and as padding above headings), never in a top margin, so no margin ever
     collapses into another. Blocks sit in runs (markdownBlocksDirective.ts) that the browser skips off
     screen, and a run stops margins collapsing across it: without top margins an answer streamed in
     runs lays out exactly as the same answer reopened in one. A run clips what overflows it (paint
     containment), so it reaches 8px into the message's padding, where long list numbers hang. */
  .md-run { content-visibility: auto; contain-intrinsic-size: auto 400px; margin: 0 -8px; padding: 0 8px; }
  .markdown :is(p, ul, ol, table, blockquote, hr, cw-code-block) { margin: 0 0 0.5em; }
  .markdown li > :is(ul, ol) { margin: 0; }
  /* A heading's own em is 1.1× larger: 0.88em of the text's size above it, 0.5em below, as before. */
  .markdown :is(h1, h2, h3) { font-size: 1.1em; margin: 0 0 calc(0.5em / 1.1); padding-top: calc(0.38em / 1.1); }
  .markdown :is(h4, h5, h6) { margin: 0 0 0.5em; padding-top: 0.38em; }
  :is(.markdown, .md-run:first-child) > :is(h1, h2, h3, h4, h5, h6):first-child { padding-top: 0; }
  :is(.markdown, .md-run:last-child) > :last-child { margin-bottom: 0; }
  .markdown ul, .markdown ol { padding-left: 1.6em; }
  .markdown code {
    font-family: var(--vscode-editor-font-family);
    font-size: var(--vscode-editor-font-size);
    color: var(--vscode-textPreformat-foreground);
    background: var(--vscode-textPreformat-background);
    padding: 1px 3px;
    border-radius: 3px;
  }
  .markdown pre {
    background: var(--vscode-textCodeBlock-background);
    border: 1px solid var(--vscode-widget-border, transparent);
    padding: 8px;
    overflow-x: auto;
    border-radius: 0 0 3px 3px;
    margin: 0;
  }
  .markdown pre code { background: none; padding: 0; color: var(--vscode-editor-foreground); white-space: pre; }
  .markdown blockquote { border-left: 3px solid var(--vscode-textBlockQuote-border); background: var(--vscode-textBlockQuote-background); padding: 2px 8px; }
  /* A run clips what overflows it (paint containment), so a wide table scrolls inside itself. */
  .markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
  .markdown th, .markdown td { border: 1px solid var(--vscode-editorWidget-border); padding: 2px 6px; }
  .markdown img { max-width: 100%; }
  .markdown a.remote-image { display: inline-flex; gap: 4px; align-items: center; }
  /* A code block's toolbar is light DOM (cw-code-block.ts), so its styles live here. */
  cw-code-block { display: block; }
  /* An answer in one run (short, or reopened whole) has no runs to skip; its code blocks are skipped instead. */
  .md-run:only-child cw-code-block { content-visibility: auto; contain-intrinsic-size: auto 60px; }
  .code-bar { display: flex; align-items: center; gap: 2px; padding: 1px 4px 1px 8px; border: 1px solid var(--vscode-widget-border, transparent); border-bottom: none; border-radius: 3px 3px 0 0; background: var(--vscode-editorGroupHeader-tabsBackground); user-select: none; }
  .code-bar .lang { margin-right: auto; font-size: 0.85em; color: var(--vscode-descriptionForeground); }
`;
