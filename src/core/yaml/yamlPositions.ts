/**
 * js-yaml returns plain values without positions, but every error we report must name a line
 * and column. Its `listener` hook sees each node open and close in document order, which is
 * enough to rebuild a shadow tree of offsets that field paths can be looked up in.
 */
export interface ShadowNode {
  start: number;
  end: number;
  kind: string;
  result: unknown;
  children: ShadowNode[];
}

export interface Position {
  line: number;
  column: number;
}

export class PositionIndex {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly text: string,
    private readonly document: ShadowNode | undefined,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /** Position of the value at `path`, or of the key itself when `key` is set; the nearest ancestor when the path is not found. */
  locate(path: ReadonlyArray<string | number>, key = false): Position {
    let node = this.document;
    if (!node) return { line: 1, column: 1 };
    let keyNode: ShadowNode | undefined;
    for (const part of path) {
      const child = childAt(node, part);
      if (!child) break;
      keyNode = child.key;
      node = child.value;
    }
    return this.positionOf(key && keyNode ? keyNode : node);
  }

  /** The field path of the innermost value or key written over `offset`; [] when it is in no field (e.g. a top-level comment). */
  pathAt(offset: number): Array<string | number> {
    const path: Array<string | number> = [];
    const contains = (node: ShadowNode) => node.start <= offset && offset < node.end;
    let node = this.document;
    while (node) {
      let next: ShadowNode | undefined;
      if (node.kind === 'sequence') {
        const index = node.children.findIndex(contains);
        if (index >= 0) {
          path.push(index);
          next = node.children[index];
        }
      } else if (node.kind === 'mapping') {
        for (let i = 0; i + 1 < node.children.length; i += 2) {
          const key = node.children[i];
          const value = node.children[i + 1];
          if (contains(key)) return [...path, String(key.result)];
          if (contains(value)) {
            path.push(String(key.result));
            next = value;
            break;
          }
        }
      }
      node = next;
    }
    return path;
  }

  /** The offsets [start, end) of the value at `path` (or of its key with `key`), past leading blanks; undefined when the path is not in the document. */
  spanOf(path: ReadonlyArray<string | number>, key = false): { start: number; end: number } | undefined {
    let node = this.document;
    let keyNode: ShadowNode | undefined;
    for (const part of path) {
      const child = node && childAt(node, part);
      if (!child) return undefined;
      keyNode = child.key;
      node = child.value;
    }
    const target = key ? keyNode : node;
    if (!target) return undefined;
    const start = this.skipBlank(target.start, target.end);
    let end = target.end;
    while (end > start && /\s/.test(this.text[end - 1])) end--;
    return { start, end };
  }

  /** The offset of a 1-based line and column (clamped to the text). */
  offsetAt(line: number, column: number): number {
    const start = this.lineStarts[Math.min(Math.max(line, 1), this.lineStarts.length) - 1];
    return Math.min(start + Math.max(column, 1) - 1, this.text.length);
  }

  positionAt(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low] + 1 };
  }

  /** Where the content of the span [start, end) begins, past leading blanks and comments. */
  positionOfSpan(start: number, end: number): Position {
    return this.positionAt(this.skipBlank(start, end));
  }

  private positionOf(node: ShadowNode): Position {
    return this.positionOfSpan(node.start, node.end);
  }

  /** Listener offsets can sit before the whitespace, comments or `- ` that precede a node. */
  private skipBlank(offset: number, end: number): number {
    let i = offset;
    while (i < end) {
      const ch = this.text[i];
      if (ch === '#') {
        while (i < end && this.text[i] !== '\n') i++;
      } else if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === ':' || (ch === '-' && /\s/.test(this.text[i + 1] ?? ''))) {
        i++;
      } else break;
    }
    return i < end ? i : offset;
  }
}

function childAt(node: ShadowNode, part: string | number): { key?: ShadowNode; value: ShadowNode } | undefined {
  if (node.kind === 'sequence' && typeof part === 'number') {
    const value = node.children[part];
    return value ? { value } : undefined;
  }
  if (node.kind === 'mapping') {
    for (let i = 0; i + 1 < node.children.length; i += 2) {
      if (String(node.children[i].result) === String(part)) return { key: node.children[i], value: node.children[i + 1] };
    }
  }
  return undefined;
}
