import mermaid, { type MermaidConfig } from 'mermaid';
import { diagramStyleSheet } from './diagramCss';
import { sanitizeDiagram } from './diagramSanitizer';
import { drawWithoutInlineStyles } from './inlineStyleGuard';

/**
 * Mermaid diagrams drawn in the page, from the page's own bundle: nothing is fetched. Strict
 * security (no clicks, no HTML labels, Mermaid's own sanitising) and keys a diagram's
 * `%%{init}%%` directive or front matter cannot change, so a page cannot loosen any of it.
 */
const SECURE_KEYS = [
  // Mermaid's own.
  'secure',
  'securityLevel',
  'startOnLoad',
  'maxTextSize',
  'suppressErrorRendering',
  'maxEdges',
  // Ours: HTML labels (checked at every depth, so `flowchart.htmlLabels` too), the sanitiser's
  // configuration, and the settings that are CSS text.
  'htmlLabels',
  'dompurifyConfig',
  'themeCSS',
  'themeVariables',
  'fontFamily',
  'altFontFamily',
  'arrowMarkerAbsolute',
  'legacyMathML',
  'forceLegacyMathML',
];

function configFor(theme: MermaidConfig['theme']): MermaidConfig {
  return {
    startOnLoad: false,
    securityLevel: 'strict',
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    // A diagram that does not parse throws; the view shows its source instead of Mermaid's error drawing.
    suppressErrorRendering: true,
    theme,
    secure: SECURE_KEYS,
    logLevel: 'fatal',
  };
}

/** VS Code marks the page's body with the kind of theme, and changes it when the user switches themes. */
export function themeOfPage(): MermaidConfig['theme'] {
  const classes = document.body.classList;
  const dark = classes.contains('vscode-dark') || (classes.contains('vscode-high-contrast') && !classes.contains('vscode-high-contrast-light'));
  return dark ? 'dark' : 'default';
}

let configuredTheme: MermaidConfig['theme'] | undefined;
let renderCount = 0;
/** Mermaid keeps global state while it draws, so diagrams are drawn one at a time. */
let queue: Promise<unknown> = Promise.resolve();

export interface DrawnDiagram {
  svg: DocumentFragment;
  styles: CSSStyleSheet;
}

/** Draws one diagram; rejects with Mermaid's error if the source does not parse. */
export function drawDiagram(source: string): Promise<DrawnDiagram> {
  const drawn = queue.then(() => drawNow(source));
  queue = drawn.catch(() => undefined);
  return drawn;
}

async function drawNow(source: string): Promise<DrawnDiagram> {
  const theme = themeOfPage();
  if (theme !== configuredTheme) {
    mermaid.initialize(configFor(theme));
    configuredTheme = theme;
  }
  const id = `cw-diagram-${++renderCount}`;
  const drawing = await drawWithoutInlineStyles(id, diagramStyleSheet, () => mermaid.render(id, source));
  if (!drawing.svg) throw new Error('The diagram could not be drawn.');
  return { svg: sanitizeDiagram(drawing.svg), styles: diagramStyleSheet(drawing.css) };
}
