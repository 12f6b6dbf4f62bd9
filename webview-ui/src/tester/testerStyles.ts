import { css } from 'lit';

/** The Tool Tester's layout: an editor-sized page of sections, code in the editor font, nothing wider than the panel. */
export const testerStyles = css`
  :host { display: block; padding: 12px 16px 24px; max-width: 1100px; }
  h1 { font-size: 1.3em; margin: 0 0 4px; }
  h2 { font-size: 1.1em; margin: 20px 0 6px; display: flex; align-items: center; gap: 6px; }
  section { border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border)); }
  .summary { display: flex; flex-wrap: wrap; gap: 4px 16px; }
  pre, textarea, code { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 0.95em); }
  pre { background: var(--vscode-textCodeBlock-background); padding: 8px; margin: 4px 0; overflow: auto; max-height: 420px; white-space: pre-wrap; overflow-wrap: anywhere; }
  textarea { width: 100%; min-height: 120px; resize: vertical; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 6px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 6px; vertical-align: top; border-bottom: 1px solid var(--vscode-widget-border, transparent); }
  th { font-weight: 600; }
  td.name code { overflow-wrap: anywhere; }
  .tabs { display: flex; gap: 4px; margin: 4px 0; }
  .tabs button[aria-pressed='true'] { outline: 1px solid var(--vscode-focusBorder); }
  .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
  .call { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); border-radius: 3px; padding: 6px 8px; margin: 6px 0; }
  .ok { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
  .bad { color: var(--vscode-errorForeground); }
  .error { color: var(--vscode-errorForeground); white-space: pre-wrap; }
  .verdict { font-weight: 600; }
  details > summary { cursor: pointer; }
`;
