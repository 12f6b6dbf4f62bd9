import { md, type References } from './markdownParser';
import { countMarkdownWork } from './markdownWork';

export interface TopLevelBlocks {
  /** Offsets where the blocks start; the first is always 0 (leading blank lines stay with it). */
  starts: number[];
  /** For each of `starts`: whether that block is a link reference definition (markdown-it gives each its own). */
  definitions: boolean[];
  /** Every definition in the source, at any depth, by label, with the offset of the line it starts on. */
  labels: Array<{ label: string; at: number }>;
  /** The inline source of the last block when that block is one paragraph (as markdown-it has it: trimmed). */
  lastParagraph?: string;
}

/**
 * The top-level blocks of `source` as markdown-it's own block parser sees them, so splitting can
 * never disagree with rendering the whole text. Only the block phase runs (no inline parsing),
 * which is cheap and linear in `source`. Definitions found on the way are added to `references`
 * (markdown-it keeps the first of a label: one already there, or inherited, stays).
 */
export function topLevelBlocks(source: string, references: References = {}): TopLevelBlocks {
  countMarkdownWork('parsed', source.length);
  const tokens: ReturnType<typeof md.parse> = [];
  md.block.parse(source.replace(/\r\n?/g, '\n'), md, { references }, tokens);
  const lines = lineStarts(source);
  const starts = [0];
  const definitions = [false];
  const labels: TopLevelBlocks['labels'] = [];
  for (const token of tokens) {
    if (!token.map) continue;
    const offset = lines[token.map[0]];
    const definition = token.type === 'reference_definition';
    if (definition) labels.push({ label: String((token.meta as { label: string }).label), at: offset });
    if (token.level !== 0 || token.nesting === -1) continue;
    if (offset > starts[starts.length - 1]) {
      starts.push(offset);
      definitions.push(definition);
    } else if (offset === 0) {
      definitions[0] = definition;
    }
  }
  const [open, inline, close] = tokens.slice(-3);
  const paragraph = tokens.length >= 3 && open.type === 'paragraph_open' && open.level === 0 && close.type === 'paragraph_close';
  return { starts, definitions, labels, lastParagraph: paragraph ? inline.content : undefined };
}

/** Offsets where each line starts; `\r\n`, `\r` and `\n` each end a line, as markdown-it normalises them. */
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x0d && source.charCodeAt(i + 1) === 0x0a) i++;
    if (c === 0x0a || c === 0x0d) starts.push(i + 1);
  }
  return starts;
}

/** Splits `source` at `starts` (from `topLevelBlocks`). */
export function sliceBlocks(source: string, starts: number[]): string[] {
  return starts.map((start, i) => source.slice(start, starts[i + 1] ?? source.length));
}
