import { css } from 'lit';
import { drawDiagram } from './mermaidDiagrams';

/**
 * Diagrams are drawn after the page's text is shown, one after another, so a long page appears at
 * once. Each replaces its `.diagram-source` block; one that cannot be drawn keeps its source, with
 * a line saying why. `isCurrent` turns false when another page is shown, which stops the rest.
 */
export async function drawDiagramsIn(root: ParentNode, isCurrent: () => boolean): Promise<void> {
  for (const block of [...root.querySelectorAll<HTMLElement>('.diagram-source')]) {
    await nextFrame();
    if (!isCurrent()) return;
    const source = block.querySelector('code')?.textContent ?? '';
    try {
      const diagram = await drawDiagram(source);
      if (!isCurrent()) return;
      const view = document.createElement('cw-wiki-diagram') as CwWikiDiagram;
      view.show(diagram.svg, diagram.styles);
      block.replaceWith(view);
    } catch (error) {
      if (!isCurrent()) return;
      const note = document.createElement('p');
      note.className = 'diagram-error';
      note.textContent = `Diagram not drawn: ${firstLine(error)}`;
      block.prepend(note);
      block.classList.add('failed');
    }
  }
}

/** After the browser has painted what is there. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((l) => l.trim()) ?? 'unknown error';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

const frameStyles = css`
  :host { display: block; margin: 0 0 0.75em; overflow-x: auto; }
  svg { display: block; max-width: 100%; height: auto; }
`.styleSheet!;

/**
 * One drawn diagram in its own shadow root: its stylesheet (selectors on the SVG's id) applies to
 * it alone, and the page's rules never restyle it.
 */
export class CwWikiDiagram extends HTMLElement {
  show(svg: DocumentFragment, styles: CSSStyleSheet): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [frameStyles, styles];
    root.replaceChildren(svg);
    this.setAttribute('role', 'figure');
  }
}

if (!customElements.get('cw-wiki-diagram')) customElements.define('cw-wiki-diagram', CwWikiDiagram);
