import type { YamlLimits } from './yamlLimits';

/** What a node would weigh if every alias inside it were replaced by a copy of its anchored node. */
interface ExpandedSize {
  nodes: number;
  chars: number;
  /** Levels of collections, the node itself included (a scalar has none). */
  height: number;
}

interface OpenNode {
  nodesBefore: number;
  charsBefore: number;
  childHeight: number;
}

/**
 * Measures the expanded size of a document while js-yaml is still reading it, from its
 * `listener` events. js-yaml shares an aliased value by reference, so the parsed value stays
 * small; the cost arrives later, when the schema, the templates or a dry run copy and walk each
 * reference. A handful of anchors can make ten thousand steps or a gigabyte of prompt text out of
 * a small file, so the copies are counted here, before anything walks the value.
 *
 * The counts are memoised per collection: an alias adds the size its anchored node had when it
 * closed, so measuring costs one visit per written node however much the aliases multiply, and
 * the first alias that crosses a limit stops the parse.
 */
export class ExpansionMeter {
  private nodes = 0;
  private chars = 0;
  private readonly open: OpenNode[] = [];
  private readonly sizes = new WeakMap<object, ExpandedSize>();

  constructor(private readonly limits: Pick<YamlLimits, 'maxExpandedNodes' | 'maxExpandedChars' | 'maxDepth'>) {}

  opened(): void {
    this.open.push({ nodesBefore: this.nodes, charsBefore: this.chars, childHeight: 0 });
  }

  /**
   * `kind` and `tag` are js-yaml's state at close. An alias is the only node whose value is a
   * collection while both stay null: js-yaml sets `kind` when it reads a collection, and an empty
   * node only becomes a collection through a tag such as `!!map` (an alias may not have one).
   * Returns the problem when a limit is crossed.
   */
  closed(kind: string | null, tag: string | null, result: unknown): string | undefined {
    const node = this.open.pop();
    if (!node) return undefined;
    const isCollection = typeof result === 'object' && result !== null;
    const isAlias = kind === null && tag === null && isCollection;
    let height = 0;
    if (isAlias) {
      const anchored = this.sizes.get(result);
      // js-yaml registers an anchor when its collection opens, so `&a [*a]` is a value that contains itself.
      if (!anchored) return 'an alias refers to a node that contains it, so the document expands without end';
      this.nodes = node.nodesBefore + anchored.nodes;
      this.chars = node.charsBefore + anchored.chars;
      height = anchored.height;
    } else if (isCollection) {
      this.nodes += 1;
      height = node.childHeight + 1;
      this.sizes.set(result, { nodes: this.nodes - node.nodesBefore, chars: this.chars - node.charsBefore, height });
    } else {
      // Counted from the start of this node, not added: js-yaml first tries an anchored scalar as the
      // key of a block mapping, then backs off and reads it again, and the abandoned try must not count.
      this.nodes = node.nodesBefore + 1;
      this.chars = node.charsBefore + (typeof result === 'string' ? result.length : 0);
    }
    const parent = this.open[this.open.length - 1];
    if (parent) parent.childHeight = Math.max(parent.childHeight, height);
    return this.problem(isAlias ? this.open.length - 1 + height : 0);
  }

  /** `depth`: how deep the collections an alias brings in reach, counted like the parser's own nesting check. */
  private problem(depth: number): string | undefined {
    const { maxExpandedNodes, maxExpandedChars, maxDepth } = this.limits;
    if (this.nodes > maxExpandedNodes) return `the document expands to more than ${maxExpandedNodes} nodes through aliases (limit ${maxExpandedNodes})`;
    if (this.chars > maxExpandedChars)
      return `the document expands to more than ${maxExpandedChars} characters of text through aliases (limit ${maxExpandedChars})`;
    if (depth > maxDepth) return `aliases nest the document deeper than ${maxDepth} levels (limit ${maxDepth})`;
    return undefined;
  }
}
