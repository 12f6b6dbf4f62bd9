import { html, LitElement, type PropertyValues } from 'lit';
import { glyph, type IconName } from '../icons';

type RenderCounts = Record<string, number>;

/**
 * Base of every component. When a test or the benchmark installs `window.__cwRenderCounts`, each
 * render is counted under the component's path (e.g. `cw-app > cw-message-list > cw-message#m7`),
 * which is how "streaming re-renders only the streaming message" is proved. Otherwise it costs one lookup.
 */
export class CwElement extends LitElement {
  /** This component's name in render counts; a message adds its id. */
  protected get counterName(): string {
    return this.localName;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const counts = (globalThis as { __cwRenderCounts?: RenderCounts }).__cwRenderCounts;
    if (!counts) return;
    const key = this.counterPath();
    counts[key] = (counts[key] ?? 0) + 1;
  }

  private counterPath(): string {
    const names: string[] = [];
    for (let node: Node | undefined = this as Node; node;) {
      if (node instanceof CwElement) names.unshift(node.counterName);
      const root = node.getRootNode();
      node = root instanceof ShadowRoot ? root.host : undefined;
    }
    return names.join(' > ');
  }
}

export function icon(name: IconName, extraClass = '') {
  return html`<span class="codicon ${extraClass}" data-icon=${glyph(name)} aria-hidden="true"></span>`;
}
