import DOMPurify from 'dompurify';

/**
 * Mermaid draws into the live document and styles its drawing in ways the page's CSP refuses
 * (`style-src` has no 'unsafe-inline', security.md #4): a `<style>` element in the SVG, `style`
 * attributes set with `setAttribute`, and, to finish, the SVG serialised and parsed again by its
 * DOMPurify pass. Each would be blocked and reported. While one diagram is drawn this guard:
 * - turns `setAttribute('style', …)` into the CSSOM (`element.style.cssText`), which CSP allows;
 * - keeps `<style>` elements out of the document and collects their CSS, which the caller turns
 *   into a constructable stylesheet (also allowed); the document adopts it meanwhile, so text is
 *   measured in the diagram's font;
 * - answers Mermaid's final sanitising of the serialised SVG with nothing and keeps the drawn SVG
 *   node instead, so it is never parsed from markup (the caller sanitises the node).
 * Everything is put back when the drawing ends, whatever happens.
 */
export interface GuardedDrawing {
  /** The drawn `<svg>`, cloned before Mermaid removes it. */
  svg: Element | undefined;
  /** The CSS of the `<style>` elements it made. */
  css: string;
}

type Restore = () => void;

export async function drawWithoutInlineStyles(svgId: string, makeSheet: (css: string) => CSSStyleSheet, draw: () => Promise<unknown>): Promise<GuardedDrawing> {
  const styleElements: Element[] = [];
  const cssOf = () => styleElements.map((element) => element.textContent ?? '').join('\n');
  let measuring: CSSStyleSheet | undefined;
  const remeasure = () => {
    const sheet = makeSheet(cssOf());
    document.adoptedStyleSheets = [...document.adoptedStyleSheets.filter((s) => s !== measuring), sheet];
    measuring = sheet;
  };
  const drawing: GuardedDrawing = { svg: undefined, css: '' };
  const restores = [
    guardStyleAttributes(),
    keepStylesOut((element) => {
      styleElements.push(element);
      remeasure();
    }),
    takeSerialisedSvg(svgId, (svg) => (drawing.svg = svg)),
  ];
  try {
    await draw();
  } finally {
    for (const restore of restores.reverse()) restore();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== measuring);
  }
  drawing.css = cssOf();
  return drawing;
}

function isStyleAttribute(name: unknown): boolean {
  return typeof name === 'string' && name.toLowerCase() === 'style';
}

function inlineStyle(element: Element): CSSStyleDeclaration | undefined {
  const style = (element as Partial<ElementCSSInlineStyle>).style;
  return style instanceof CSSStyleDeclaration ? style : undefined;
}

function guardStyleAttributes(): Restore {
  const proto = Element.prototype;
  const { setAttribute, setAttributeNS } = proto;
  proto.setAttribute = function (this: Element, name: string, value: string) {
    const style = isStyleAttribute(name) ? inlineStyle(this) : undefined;
    if (style) style.cssText = String(value);
    else setAttribute.call(this, name, value);
  };
  proto.setAttributeNS = function (this: Element, namespace: string | null, name: string, value: string) {
    const style = !namespace && isStyleAttribute(name) ? inlineStyle(this) : undefined;
    if (style) style.cssText = String(value);
    else setAttributeNS.call(this, namespace, name, value);
  };
  return () => Object.assign(proto, { setAttribute, setAttributeNS });
}

function keepStylesOut(collect: (element: Element) => void): Restore {
  const proto = Node.prototype;
  const { appendChild, insertBefore } = proto;
  const isStyleElement = (node: Node): node is Element => node instanceof HTMLStyleElement || node instanceof SVGStyleElement;
  proto.appendChild = function <T extends Node>(this: Node, node: T): T {
    if (!isStyleElement(node)) return appendChild.call(this, node) as T;
    collect(node);
    return node;
  };
  proto.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    if (!isStyleElement(node)) return insertBefore.call(this, node, child) as T;
    collect(node);
    return node;
  };
  return () => Object.assign(proto, { appendChild, insertBefore });
}

/** Mermaid serialises the drawing with `innerHTML` and hands the markup to DOMPurify's shared instance. */
function takeSerialisedSvg(svgId: string, take: (svg: Element) => void): Restore {
  const { sanitize } = DOMPurify;
  const serialised = (dirty: unknown) => typeof dirty === 'string' && dirty.trimStart().startsWith('<svg') && dirty.includes(`id="${svgId}"`);
  DOMPurify.sanitize = function (dirty: string | Node, config?: object) {
    if (!serialised(dirty)) return sanitize.call(DOMPurify, dirty, config as never);
    const svg = document.getElementById(svgId);
    if (svg) take(svg.cloneNode(true) as Element);
    return '';
  } as typeof DOMPurify.sanitize;
  return () => (DOMPurify.sanitize = sanitize);
}
