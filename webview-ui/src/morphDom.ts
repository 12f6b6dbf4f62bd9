/**
 * Nodes the app itself puts inside rendered Markdown (a code block's toolbar). Morphing skips them, so
 * they survive as the Markdown around them changes; a WeakSet, so no content can claim to be one.
 */
export const appChrome = new WeakSet<Node>();

/**
 * Turns live DOM into a copy of new (already sanitised) DOM while keeping every node that stays the
 * same: a streaming code block keeps its `cw-code-block` element and only its text grows, instead of
 * the element and its toolbar being rebuilt on every frame.
 *
 * Only sanitised values are ever copied (text, and the whole attribute set of an element), and an
 * element whose tag differs is replaced by an import of the new one, so afterwards the live DOM
 * equals the sanitised DOM, apart from `appChrome`.
 */
export function morphNodes(parent: Node, live: readonly Node[], next: NodeListOf<ChildNode>, anchor: Node | null): Node[] {
  const incoming = [...next];
  const result: Node[] = [];
  for (let i = 0; i < incoming.length; i++) {
    if (i < live.length) {
      result.push(morphNode(live[i], incoming[i]));
    } else {
      const node = importNode(incoming[i]);
      parent.insertBefore(node, result.length ? result[result.length - 1].nextSibling : anchor);
      result.push(node);
    }
  }
  for (let i = incoming.length; i < live.length; i++) live[i].parentNode?.removeChild(live[i]);
  return result;
}

function morphNode(live: Node, next: Node): Node {
  if (live.nodeType === next.nodeType && (live.nodeType === Node.TEXT_NODE || live.nodeType === Node.COMMENT_NODE)) {
    const text = live as CharacterData;
    if (text.data !== (next as CharacterData).data) text.data = (next as CharacterData).data;
    return live;
  }
  if (live instanceof Element && next instanceof Element && live.localName === next.localName) {
    copyAttributes(live, next);
    morphNodes(
      live,
      [...live.childNodes].filter((child) => !appChrome.has(child)),
      next.childNodes,
      null,
    );
    return live;
  }
  const node = importNode(next);
  live.parentNode?.replaceChild(node, live);
  return node;
}

function copyAttributes(live: Element, next: Element): void {
  for (const { name } of [...live.attributes]) if (!next.hasAttribute(name)) live.removeAttribute(name);
  for (const { name, value } of next.attributes) if (live.getAttribute(name) !== value) live.setAttribute(name, value);
}

/** `next` lives in an inert template document; importing creates (and upgrades) it in this one. */
function importNode(next: Node): Node {
  return document.importNode(next, true);
}

/** `node`'s tree without the text of its text nodes: its nodes, element names and attributes, in order. */
export function shapeOf(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return '#';
  if (node.nodeType === Node.COMMENT_NODE) return `<!--${JSON.stringify((node as Comment).data)}-->`;
  let shape = `<${node.nodeName}`;
  if (node instanceof Element) for (const { name, value } of node.attributes) shape += ` ${name}=${JSON.stringify(value)}`;
  shape += '>';
  for (const child of node.childNodes) shape += shapeOf(child);
  return `${shape}</>`;
}
