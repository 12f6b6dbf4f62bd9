import DOMPurify from 'dompurify';
import { hasRemoteReference, scrubDeclarations } from './diagramCss';

/**
 * The second lock on a drawn diagram, after Mermaid's `securityLevel: 'strict'`: DOMPurify's SVG
 * profile without links, foreign HTML, scripts, styles or images, so whatever a diagram's source
 * says (`click … href`, HTML labels), what is shown is shapes and text. The SVG is sanitised as a
 * node, never as markup: parsing markup that holds `style` attributes is refused by the page's CSP.
 */
const purify = DOMPurify();
purify.addHook('uponSanitizeAttribute', (_node, data) => {
  // Presentation attributes may point into the SVG (marker-end="url(#arrow)"), never elsewhere.
  if (data.attrName !== 'style' && hasRemoteReference(data.attrValue)) data.keepAttr = false;
});

const FORBIDDEN = ['a', 'foreignobject', 'foreignObject', 'script', 'style', 'image', 'feimage', 'feImage', 'use', 'iframe', 'animate', 'set'];

export function sanitizeDiagram(svg: Element): DocumentFragment {
  const fragment = purify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: FORBIDDEN,
    ADD_FORBID_CONTENTS: ['foreignobject', 'foreignObject'],
    FORBID_ATTR: ['href', 'xlink:href', 'src', 'action', 'formaction'],
    RETURN_DOM_FRAGMENT: true,
  });
  for (const element of fragment.querySelectorAll<SVGElement | HTMLElement>('[style]')) scrubDeclarations(element.style);
  return fragment;
}
