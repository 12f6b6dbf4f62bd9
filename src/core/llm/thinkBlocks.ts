const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitText {
  answer: string;
  reasoning: string;
}

/**
 * Separates a reasoning model's `<think>…</think>` blocks from its answer while the text streams.
 * A tag may arrive split across chunks, so a trailing piece that could be the start of a tag is
 * held back until the next chunk (or `flush`) shows what it is.
 */
export class ThinkBlockSplitter {
  private inside = false;
  private pending = '';

  push(chunk: string): SplitText {
    const out: SplitText = { answer: '', reasoning: '' };
    let text = this.pending + chunk;
    this.pending = '';
    while (text) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at !== -1) {
        this.emit(out, text.slice(0, at));
        this.inside = !this.inside;
        text = text.slice(at + tag.length);
        continue;
      }
      const partial = partialTagSuffix(text, tag);
      this.emit(out, text.slice(0, text.length - partial));
      this.pending = text.slice(text.length - partial);
      break;
    }
    return out;
  }

  /** What is left at the end of the stream; an unclosed block counts as reasoning. */
  flush(): SplitText {
    const out: SplitText = { answer: '', reasoning: '' };
    this.emit(out, this.pending);
    this.pending = '';
    return out;
  }

  private emit(out: SplitText, text: string): void {
    if (this.inside) out.reasoning += text;
    else out.answer += text;
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}

/** The whole-text form, for answers that did not stream. */
export function splitThinkBlocks(text: string): SplitText {
  const splitter = new ThinkBlockSplitter();
  const first = splitter.push(text);
  const rest = splitter.flush();
  return { answer: first.answer + rest.answer, reasoning: first.reasoning + rest.reasoning };
}
