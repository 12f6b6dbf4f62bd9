/**
 * CSS that comes with a diagram is partly the page author's (`style`, `classDef`, theme variables),
 * so it may not fetch anything: every `url()`, `image()` and `image-set()` that is not a reference
 * inside the SVG (`url(#marker)`) is removed, and so are @font-face and @import. The CSSOM does the
 * parsing, so escapes (`\75rl(`) are already resolved when a value is checked.
 */

const REMOTE_REFERENCE = /(?:url|src)\(\s*(?!["']?#)|image(?:-set)?\s*\(/i;

export function hasRemoteReference(value: string): boolean {
  return REMOTE_REFERENCE.test(value);
}

export function scrubDeclarations(style: CSSStyleDeclaration): void {
  for (const name of [...style]) if (hasRemoteReference(style.getPropertyValue(name))) style.removeProperty(name);
}

/** A constructable stylesheet (which the page's CSP allows) from the diagram's CSS, scrubbed. */
export function diagramStyleSheet(cssText: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  // replaceSync ignores @import rules.
  sheet.replaceSync(cssText);
  scrubRules(sheet);
  return sheet;
}

function scrubRules(list: CSSStyleSheet | CSSGroupingRule): void {
  for (let index = list.cssRules.length - 1; index >= 0; index--) {
    const rule = list.cssRules[index];
    if (rule instanceof CSSStyleRule) {
      scrubDeclarations(rule.style);
      scrubRules(rule);
    } else if (rule instanceof CSSGroupingRule) scrubRules(rule);
    else if (rule instanceof CSSKeyframesRule) for (const frame of rule.cssRules) scrubDeclarations((frame as CSSKeyframeRule).style);
    else list.deleteRule(index);
  }
}
