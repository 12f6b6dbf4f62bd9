import { noChange } from 'lit';
import { type ChildPart, Directive, directive, type PartInfo, PartType } from 'lit/directive.js';
import { morphNodes } from '../morphDom';
import type { Rendered, RenderedBlock, RenderedParagraph } from '../streamedMarkdown';

/**
 * Blocks per run. An answer's blocks are shown in runs, `<div class="md-run">` each holding this many
 * in order, with `content-visibility: auto` (styles.ts): the browser skips the runs scrolled out of
 * view in style, layout and paint. Without runs, every frame of a long streamed answer laid out and
 * pre-painted all its blocks (the list is pinned to the bottom, so the growing answer moves them all),
 * and the browser's share of a frame grew with the answer: a 76 KB answer kept the main thread busy
 * for 30 s while it streamed. A run holds a fixed number of blocks, so where runs start depends only
 * on the text, never on how it arrived.
 */
const RUN_BLOCKS = 24;

interface Shown {
  block: RenderedBlock<DocumentFragment>;
  /** Its top-level nodes, inside its run. */
  nodes: Node[];
  /** For a paragraph shown in pieces: each piece's nodes inside the `<p>` (`nodes[0]`). */
  pieces?: Array<{ piece: Rendered<DocumentFragment>; nodes: Node[] }>;
}

/**
 * Shows an answer's blocks (safe DOM from `markdown.ts`, imported here). A block that is the same
 * object as last time is passed over after one comparison, so a frame costs what its changed
 * blocks cost, not what the answer costs (a Lit part per block would be updated for every block);
 * a changed block is morphed, so the DOM of a block still growing (a streaming code fence) is kept.
 */
class MarkdownBlocksDirective extends Directive {
  private shown: Shown[] = [];
  private runs: HTMLElement[] = [];

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.CHILD) throw new Error('markdownBlocks() belongs in element content');
  }

  render(_blocks: ReadonlyArray<RenderedBlock<DocumentFragment>>): unknown {
    return noChange;
  }

  override update(part: ChildPart, [blocks]: [ReadonlyArray<RenderedBlock<DocumentFragment>>]): unknown {
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      const shown = this.shown[i];
      if (shown?.block === block) continue;
      const run = this.run(Math.floor(i / RUN_BLOCKS), part);
      if ('pieces' in block) {
        this.shown[i] = this.showParagraph(block, shown, run, this.anchorAfter(i));
      } else if (shown && !shown.pieces && (shown.block as Rendered<DocumentFragment>).content === block.content) {
        shown.block = block;
      } else {
        this.shown[i] = { block, nodes: morphNodes(run, shown?.nodes ?? [], block.content.childNodes, this.anchorAfter(i)) };
      }
    }
    for (const { nodes } of this.shown.splice(blocks.length)) for (const node of nodes) node.parentNode?.removeChild(node);
    for (const run of this.runs.splice(Math.ceil(blocks.length / RUN_BLOCKS))) run.remove();
    return noChange;
  }

  /** Run `index`, created at the end of the part (runs fill in order, so every earlier one exists). */
  private run(index: number, part: ChildPart): HTMLElement {
    let run = this.runs[index];
    if (!run) {
      run = document.createElement('div');
      run.className = 'md-run';
      part.parentNode.insertBefore(run, part.endNode);
      this.runs[index] = run;
    }
    return run;
  }

  /** A paragraph still streaming: one `<p>` (as markdown-it writes it, with its line break after) whose pieces morph separately. */
  private showParagraph(block: RenderedParagraph<DocumentFragment>, shown: Shown | undefined, parent: Node, anchor: Node | null): Shown {
    let pieces = shown?.pieces;
    let nodes = shown?.nodes ?? [];
    if (!pieces) {
      const paragraph = document.createElement('p');
      parent.insertBefore(paragraph, nodes[0] ?? anchor);
      parent.insertBefore(document.createTextNode('\n'), paragraph.nextSibling);
      for (const node of nodes) node.parentNode?.removeChild(node);
      nodes = [paragraph, paragraph.nextSibling!];
      pieces = [];
    }
    const paragraph = nodes[0];
    block.pieces.forEach((piece, j) => {
      if (pieces[j]?.piece === piece) return;
      const next = pieces.slice(j + 1).find((p) => p.nodes.length)?.nodes[0] ?? null;
      pieces[j] = { piece, nodes: morphNodes(paragraph, pieces[j]?.nodes ?? [], piece.content.childNodes, next) };
    });
    for (const { nodes: extra } of pieces.splice(block.pieces.length)) for (const node of extra) node.parentNode?.removeChild(node);
    return { block, nodes, pieces };
  }

  /** The node before which block `index`'s new nodes go: the first node of the next shown block in its run, or the run's end. */
  private anchorAfter(index: number): Node | null {
    const runEnd = (Math.floor(index / RUN_BLOCKS) + 1) * RUN_BLOCKS;
    for (let i = index + 1; i < Math.min(runEnd, this.shown.length); i++) if (this.shown[i].nodes.length) return this.shown[i].nodes[0];
    return null;
  }
}

/**
 * The blocks of one answer. Pass `[]` for an empty answer, never `nothing`: this directive returns
 * `noChange`, so Lit does not know of the DOM it added and would leave it in place.
 */
export const markdownBlocks = directive(MarkdownBlocksDirective);
