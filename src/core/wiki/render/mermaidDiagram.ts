/**
 * Mermaid flowcharts of modules. Labels are module paths reduced to safe characters and quoted, ids are
 * generated, and no `click` or init directive is ever written (the one style is the fixed focus class): a diagram drawn from the code can
 * only ever be boxes and arrows.
 */

const MAX_NODES = 14;
const MAX_EDGES = 24;

export interface DiagramNode {
  id: string;
  /** Drawn bold: the module the page is about. */
  focus?: boolean;
}

export function mermaidGraph(nodes: readonly DiagramNode[], edges: ReadonlyArray<readonly [string, string, number]>): string {
  const kept = nodes.slice(0, MAX_NODES);
  const key = new Map(kept.map((node, index) => [node.id, `m${index}`]));
  const lines = ['```mermaid', 'graph LR'];
  for (const node of kept) lines.push(`  ${key.get(node.id)}["${safeLabel(node.id)}"]`);
  const shown = edges
    .filter(([from, to]) => key.has(from) && key.has(to) && from !== to)
    .sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]))
    .slice(0, MAX_EDGES);
  for (const [from, to] of shown) lines.push(`  ${key.get(from)} --> ${key.get(to)}`);
  const focus = kept.filter((node) => node.focus).map((node) => key.get(node.id));
  if (focus.length) lines.push(`  classDef focus stroke-width:3px`, `  class ${focus.join(',')} focus`);
  lines.push('```');
  return lines.join('\n');
}

/** Path characters only; quotes, brackets, angle brackets and semicolons would end or escape the label. */
export function safeLabel(text: string): string {
  return (text === '.' ? '(top level)' : text).replace(/[^A-Za-z0-9_./@ -]/g, '_').slice(0, 60);
}
