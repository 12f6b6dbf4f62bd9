import { sliceBlocks, topLevelBlocks } from './markdownBlocks';
import type { References } from './markdownParser';
import { ParagraphPieces } from './paragraphPieces';

/** Renders Markdown to safe output (sanitised DOM in the webview, plain HTML in Node tests). */
export interface MarkdownRenderer<T> {
  /** One top-level block. */
  block(source: string, references: References): T;
  /** A piece of a paragraph's inline source (see `ParagraphPieces`). */
  inline(source: string, references: References): T;
  /**
   * Everything one frame needs, at once, in order. Optional: a renderer whose calls have a fixed cost
   * (the webview's parses HTML into DOM) shares it across the frame's blocks instead of paying it per block.
   */
  many?(jobs: ReadonlyArray<RenderJob>): T[];
}

export interface RenderJob {
  kind: 'block' | 'inline';
  source: string;
  references: References;
}

/** A block or paragraph piece and what it rendered to. Never mutated: unchanged means the same object. */
export interface Rendered<T> {
  readonly source: string;
  readonly content: T;
  /** The definitions it was rendered with; '' for source that cannot use any (no `[`). */
  readonly referencesKey: string;
}

/** A long paragraph that is still streaming: `<p>`, then its pieces, then `</p>`. */
export interface RenderedParagraph<T> {
  readonly pieces: ReadonlyArray<Rendered<T>>;
}

export type RenderedBlock<T> = Rendered<T> | RenderedParagraph<T>;

/**
 * Renders an answer that grows at the end, block by block, so a chunk costs about what its own
 * block costs. Blocks that no later text can change are "finished": each is rendered once and
 * stays the same object, so the view keeps its DOM (and its code block components). Only the open
 * part (the last block of the complete lines, plus the line still arriving) renders again; a long
 * paragraph there renders piece by piece.
 *
 * Finished means: followed by another top-level block that starts on a complete line. markdown-it
 * decides where a block ends from its own lines and the first line of the next block, so text
 * appended later cannot move that end (an unfinished setext underline, table delimiter row or
 * closing fence always belongs to the last block). Link definitions are the one thing that reaches
 * across blocks; they are collected as blocks are split, and a block that may use one (it has a
 * `[`) is rendered again when the set changes, so the result equals rendering the text at once.
 */
export class StreamedMarkdown<T> {
  private text = '';
  /** Finished blocks, rendered when first shown. */
  private finished: Array<{ source: string; rendered?: Rendered<T> }> = [];
  /** Finished blocks before this index are rendered with the current definitions. */
  private renderedUpTo = 0;
  /** Where the open part starts. */
  private openStart = 0;
  /** Link definitions in the finished blocks; the first of a label wins (CommonMark). */
  private finishedReferences: References = {};
  private referencesKey = '';
  /** The open part's blocks as rendered last time, by source: unchanged ones are reused. */
  private open = new Map<string, Rendered<T>>();
  /** The open paragraph being rendered in pieces, by its offset in the text. */
  private paragraph?: { at: number; pieces: ParagraphPieces; rendered: Array<Rendered<T>>; rest?: Rendered<T> };
  /** What this frame renders, filled in together at the end of `render` (see `MarkdownRenderer.many`). */
  private pending: Array<{ job: RenderJob; into: { content: T } }> = [];

  constructor(private readonly renderer: MarkdownRenderer<T>) {}

  /** Whether any text was rendered since the last reset. */
  get started(): boolean {
    return this.text !== '';
  }

  /** Every block of `text` in order. While `streaming`, a chunk's cost is its open block's, not the answer's. */
  render(text: string, streaming: boolean): Array<RenderedBlock<T>> {
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    const references = { ...this.finishedReferences };
    // One block parse a frame serves both the split into finished blocks and the open part's blocks.
    const unfinished = text.slice(this.openStart);
    const { starts: unfinishedStarts, lastParagraph } = topLevelBlocks(unfinished, references);
    const { openSource, starts } = streaming ? this.finishCompleteBlocks(unfinished, unfinishedStarts) : { openSource: unfinished, starts: unfinishedStarts };
    const key = referencesKey(references);
    if (key !== this.referencesKey) {
      this.referencesKey = key;
      this.renderedUpTo = 0;
    }
    const previous = this.open;
    for (let i = this.renderedUpTo; i < this.finished.length; i++) {
      const block = this.finished[i];
      block.rendered = this.rendered('block', block.source, references, block.rendered ?? previous.get(block.source));
    }
    this.renderedUpTo = this.finished.length;
    this.open = new Map();
    const blocks: Array<RenderedBlock<T>> = this.finished.map((block) => block.rendered!);
    const sources = sliceBlocks(openSource, starts);
    for (const [i, source] of sources.entries()) {
      const paragraph = streaming && i === sources.length - 1 && lastParagraph !== undefined ? this.paragraphPieces(lastParagraph, this.openStart + starts[i], references) : undefined;
      if (paragraph) {
        blocks.push(paragraph);
        continue;
      }
      const block = this.rendered('block', source, references, previous.get(source));
      this.open.set(source, block);
      blocks.push(block);
    }
    this.renderPending();
    return blocks;
  }

  private renderPending(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    const jobs = pending.map((p) => p.job);
    const contents = this.renderer.many?.(jobs) ?? jobs.map((job) => this.renderer[job.kind](job.source, job.references));
    pending.forEach((p, i) => (p.into.content = contents[i]));
  }

  /**
   * Moves the blocks that no later text can change from the open part to `finished`: every block
   * before the last one that starts on a complete line. The line still arriving can only join that
   * block or start a new one, so the blocks before it split as they would in the complete lines alone.
   * Returns the open part that is left and its block starts.
   */
  private finishCompleteBlocks(openSource: string, starts: number[]): { openSource: string; starts: number[] } {
    const completeEnd = openSource.lastIndexOf('\n') + 1;
    let last = starts.length - 1;
    while (last > 0 && starts[last] >= completeEnd) last--;
    if (last === 0) return { openSource, starts };
    const cut = starts[last];
    const done = openSource.slice(0, cut);
    for (const source of sliceBlocks(done, starts.slice(0, last))) this.finished.push({ source });
    if (done.includes(']:')) topLevelBlocks(done, this.finishedReferences);
    this.openStart += cut;
    return { openSource: openSource.slice(cut), starts: starts.slice(last).map((start) => start - cut) };
  }

  /** The open paragraph at `at` in pieces, or undefined while it is too short to split. */
  private paragraphPieces(content: string, at: number, references: References): RenderedParagraph<T> | undefined {
    if (this.paragraph?.at !== at) this.paragraph = { at, pieces: new ParagraphPieces(), rendered: [] };
    const paragraph = this.paragraph;
    const { closed, rest } = paragraph.pieces.update(content, references);
    if (closed.length === 0) return undefined;
    if (paragraph.rendered.length > closed.length) paragraph.rendered.length = 0;
    for (let i = 0; i < closed.length; i++) paragraph.rendered[i] = this.rendered('inline', closed[i], references, paragraph.rendered[i]);
    paragraph.rest = this.rendered('inline', rest, references, paragraph.rest);
    return { pieces: [...paragraph.rendered, paragraph.rest] };
  }

  /** `source` rendered with the current definitions; `before` is reused when it is still right. */
  private rendered(kind: 'block' | 'inline', source: string, references: References, before: Rendered<T> | undefined): Rendered<T> {
    const referencesKey = source.includes('[') ? this.referencesKey : '';
    if (before && before.source === source && before.referencesKey === referencesKey) return before;
    // Filled in by `renderPending` before `render` returns, so no caller ever sees it empty.
    const rendered = { source, content: undefined as T, referencesKey };
    this.pending.push({ job: { kind, source, references: referencesKey ? references : {} }, into: rendered });
    return rendered;
  }

  private reset(): void {
    this.text = '';
    this.finished = [];
    this.renderedUpTo = this.openStart = 0;
    this.finishedReferences = {};
    this.referencesKey = '';
    this.open = new Map();
    this.paragraph = undefined;
    this.pending = [];
  }
}

function referencesKey(references: References): string {
  return Object.keys(references).length ? JSON.stringify(references) : '';
}
