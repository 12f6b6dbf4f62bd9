import { sliceBlocks, type TopLevelBlocks, topLevelBlocks } from './markdownBlocks';
import { Definitions, type DefinitionUse, recordingLookups } from './markdownDefinitions';
import type { References } from './markdownParser';
import { ParagraphPieces } from './paragraphPieces';
import { RenderBudget } from './renderBudget';

/** Renders Markdown to safe output (sanitised DOM in the webview, plain HTML in Node tests). */
export interface MarkdownRenderer<T> {
  /**
   * One top-level block. `references` belongs to this render: give it to markdown-it as
   * `env.references` as it is, never a copy (it records the labels looked up, and copying thousands
   * of definitions per block is what made such answers freeze the view).
   */
  block(source: string, references: References): T;
  /** A piece of a paragraph's inline source (see `ParagraphPieces`); `references` as for `block`. */
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
export interface Rendered<T> extends DefinitionUse {
  readonly source: string;
  readonly content: T;
}

/** A long paragraph that is still streaming: `<p>`, then its pieces, then `</p>`. */
export interface RenderedParagraph<T> {
  readonly pieces: ReadonlyArray<Rendered<T>>;
}

export type RenderedBlock<T> = Rendered<T> | RenderedParagraph<T>;

/** A block parse costs about this share of rendering the same text: it skips inline parsing, where most of the work is. */
const PARSE_WEIGHT = 1 / 8;
/** Where a link title may start on the line after a definition. */
const TITLE_START = /[ \t]*["'(]/y;

interface PendingRender<T> {
  job: RenderJob;
  into: { content: T; lookups: readonly string[] };
  lookups: Set<string>;
  /** The finished block it is, if it is one. */
  finished?: number;
}

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
 * closing fence always belongs to the last block). One exception: a link definition's title may
 * start on the line after it and close lines later, so a definition followed by a line that may
 * start a title stays open with it. Link definitions are the one thing that reaches across blocks:
 * a finished block renders again when a label it looked up is defined (`Definitions`), so the
 * result equals rendering the text at once.
 *
 * Rendering again (the open part as it grows, a finished block for a definition) is paid from a
 * `RenderBudget`, so streaming costs about what rendering once costs whatever the answer is; a
 * frame that cannot pay shows what the last one showed, and the answer renders in full when done.
 */
export class StreamedMarkdown<T> {
  private text = '';
  /** Finished blocks, rendered when they finish. */
  private finished: Array<{ source: string; rendered?: Rendered<T> }> = [];
  /** Finished blocks before this index have been rendered at least once. */
  private renderedUpTo = 0;
  /** Where the open part starts. */
  private openStart = 0;
  private definitions = new Definitions();
  /** Finished blocks to render again, because a label they looked up changed. */
  private stale = new Set<number>();
  /** The open part's blocks as rendered last time, by source: unchanged ones are reused. */
  private open = new Map<string, Rendered<T>>();
  /** The open paragraph being rendered in pieces, by its offset in the text. */
  private paragraph?: { at: number; pieces: ParagraphPieces; rendered: Array<Rendered<T>>; rest?: Rendered<T> };
  /** What this frame renders, filled in together at the end of `render` (see `MarkdownRenderer.many`). */
  private pending: Array<PendingRender<T>> = [];
  private budget = new RenderBudget();
  /** What refreshing the open part is expected to cost: its block parse and its blocks' renders, as last time. */
  private openCost = 0;
  /** Rendering-again work of the frame being refreshed, in characters. */
  private charged = 0;
  /** The length of the text the last refresh rendered. */
  private refreshedAt = 0;
  /** What the last frame returned; a frame that cannot pay for a refresh returns it again. */
  private shown: Array<RenderedBlock<T>> = [];

  constructor(private readonly renderer: MarkdownRenderer<T>) {}

  /** Whether any text was rendered since the last reset. */
  get started(): boolean {
    return this.text !== '';
  }

  /** Every block of `text` in order. While `streaming`, a chunk's cost is its open block's, not the answer's. */
  render(text: string, streaming: boolean): Array<RenderedBlock<T>> {
    if (!text.startsWith(this.text)) this.reset();
    const added = text.length - this.text.length;
    this.text = text;
    if (streaming && this.shown.length) {
      if (this.refreshedAt === text.length) return this.shown;
      // A frame without new text (the view updated for something else) may still catch up on text a frame before could not pay for.
      this.budget.earn(added);
      if (!this.budget.canAfford(this.openCost)) return this.shown;
    }
    this.refreshedAt = text.length;
    this.charged = 0;
    const references = this.definitions.frame();
    // One block parse a frame serves both the split into finished blocks and the open part's blocks.
    const unfinished = text.slice(this.openStart);
    const parsed = topLevelBlocks(unfinished, references);
    this.charged += unfinished.length * PARSE_WEIGHT;
    const { openSource, starts } = streaming ? this.finishCompleteBlocks(unfinished, parsed, references) : { openSource: unfinished, starts: parsed.starts };
    for (const index of this.definitions.settle(references)) this.stale.add(index);
    const previous = this.open;
    for (let i = this.renderedUpTo; i < this.finished.length; i++) {
      const block = this.finished[i];
      block.rendered = this.rendered('block', block.source, references, previous.get(block.source), { charge: false, finished: i });
    }
    this.renderedUpTo = this.finished.length;
    this.open = new Map();
    const openBlocks: Array<RenderedBlock<T>> = [];
    let openSize = 0;
    const sources = sliceBlocks(openSource, starts);
    for (const [i, source] of sources.entries()) {
      const paragraph =
        streaming && i === sources.length - 1 && parsed.lastParagraph !== undefined
          ? this.paragraphPieces(parsed.lastParagraph, this.openStart + starts[i], references)
          : undefined;
      if (paragraph) {
        openBlocks.push(paragraph);
        openSize += paragraph.pieces[paragraph.pieces.length - 1].source.length;
        continue;
      }
      const block = this.rendered('block', source, references, previous.get(source), { charge: true });
      this.open.set(source, block);
      openBlocks.push(block);
      openSize += source.length;
    }
    this.openCost = openSource.length * PARSE_WEIGHT + openSize;
    if (streaming) this.budget.spend(this.charged);
    this.renderStale(references, streaming);
    this.renderPending();
    this.shown = [...this.finished.map((block) => block.rendered!), ...openBlocks];
    return this.shown;
  }

  /** Finished blocks whose definitions changed, in order; while streaming, as many as the budget pays for. */
  private renderStale(references: References, streaming: boolean): void {
    for (const index of [...this.stale].sort((a, b) => a - b)) {
      const block = this.finished[index];
      if (streaming && !this.budget.canAfford(block.source.length)) return;
      this.stale.delete(index);
      this.charged = 0;
      block.rendered = this.rendered('block', block.source, references, block.rendered, { charge: streaming, finished: index });
      this.budget.spend(this.charged);
    }
  }

  private renderPending(): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    const jobs = pending.map((p) => p.job);
    const contents = this.renderer.many?.(jobs) ?? jobs.map((job) => this.renderer[job.kind](job.source, job.references));
    pending.forEach((p, i) => {
      p.into.content = contents[i];
      p.into.lookups = [...p.lookups];
      if (p.finished !== undefined) this.definitions.addUser(p.finished, p.into as Rendered<T>);
    });
  }

  /**
   * Moves the blocks that no later text can change from the open part to `finished`: every block
   * before the last one that starts on a complete line. The line still arriving can only join that
   * block or start a new one, so the blocks before it split as they would in the complete lines alone.
   * Returns the open part that is left and its block starts.
   */
  private finishCompleteBlocks(openSource: string, parsed: TopLevelBlocks, references: References): { openSource: string; starts: number[] } {
    const { starts, definitions, labels } = parsed;
    const completeEnd = openSource.lastIndexOf('\n') + 1;
    let last = starts.length - 1;
    while (last > 0 && starts[last] >= completeEnd) last--;
    if (last > 0 && definitions[last - 1] && mayStartTitle(openSource, starts[last])) last--;
    if (last === 0) return { openSource, starts };
    const cut = starts[last];
    for (const source of sliceBlocks(openSource.slice(0, cut), starts.slice(0, last))) this.finished.push({ source });
    this.definitions.finish(
      references,
      labels.filter((definition) => definition.at < cut).map((definition) => definition.label),
    );
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
    for (let i = 0; i < closed.length; i++) {
      const before = paragraph.rendered[i];
      paragraph.rendered[i] = this.rendered('inline', closed[i], references, before, { charge: before !== undefined });
    }
    paragraph.rest = this.rendered('inline', rest, references, paragraph.rest, { charge: true });
    return { pieces: [...paragraph.rendered, paragraph.rest] };
  }

  /**
   * `source` rendered with the current definitions; `before` is reused when it is still right.
   * `charge`: a render again, paid from the budget (not a finished block's or closed piece's first).
   */
  private rendered(
    kind: 'block' | 'inline',
    source: string,
    references: References,
    before: Rendered<T> | undefined,
    how: { charge: boolean; finished?: number },
  ): Rendered<T> {
    if (before && before.source === source && !this.definitions.outdated(before)) {
      if (how.finished !== undefined) this.definitions.addUser(how.finished, before);
      return before;
    }
    if (how.charge) this.charged += source.length;
    const lookups = new Set<string>();
    // Filled in by `renderPending` before `render` returns, so no caller ever sees it empty.
    const rendered = { source, content: undefined as T, lookups: [] as readonly string[], version: this.definitions.version };
    // Without a `[` nothing can be looked up or defined.
    const jobReferences = source.includes('[') ? recordingLookups(references, lookups) : {};
    this.pending.push({ job: { kind, source, references: jobReferences }, into: rendered, lookups, finished: how.finished });
    return rendered;
  }

  private reset(): void {
    this.text = '';
    this.finished = [];
    this.renderedUpTo = this.openStart = this.openCost = this.refreshedAt = 0;
    this.definitions = new Definitions();
    this.stale = new Set();
    this.open = new Map();
    this.paragraph = undefined;
    this.pending = [];
    this.budget = new RenderBudget();
    this.shown = [];
  }
}

/** Whether the line at `offset` may start a link title (after a definition: then it may continue that definition). */
function mayStartTitle(source: string, offset: number): boolean {
  TITLE_START.lastIndex = offset;
  return TITLE_START.test(source);
}
