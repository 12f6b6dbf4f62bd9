import { REQUEST_END, REQUEST_START } from './toolProtocol';

/** One `<<<[TOOL_REQUEST]>>> … <<<[END_TOOL_REQUEST]>>>` block as the model wrote it. */
export interface RawToolRequest {
  /** The text between the markers. */
  body: string;
  /** False when the answer ended before `<<<[END_TOOL_REQUEST]>>>` (e.g. the output token limit). */
  closed: boolean;
}

/**
 * Finds request blocks in answer text as it streams and hands back only the text around them, so a
 * block never reaches the displayed answer. Each character is looked at a bounded number of times:
 * outside a block only a held-back tail shorter than the start marker is carried to the next chunk,
 * and inside one only a tail shorter than the end marker is searched again; the block's own text is
 * collected as parts and joined once, when the block ends. Work is linear in the answer's length.
 * Only the text before the first block is the turn's visible text (see `shown`).
 */
export class ToolRequestStream {
  readonly blocks: RawToolRequest[] = [];
  private inBlock = false;
  /** Outside a block: text that may be the start of REQUEST_START. Inside: the last chars of the body. */
  private tail = '';
  private parts: string[] = [];
  /** Just after a block: the white space that follows it is dropped, so blocks leave no blank lines behind. */
  private afterBlock = false;

  /** Takes the next piece of answer text; returns the part of the text that is not inside a block. */
  push(chunk: string): string {
    let visible = '';
    let rest = chunk;
    while (rest) {
      if (this.inBlock) {
        rest = this.pushInside(rest);
        continue;
      }
      if (this.afterBlock) {
        rest = rest.trimStart();
        if (!rest) return visible;
        this.afterBlock = false;
      }
      const search = this.tail + rest;
      const at = search.indexOf(REQUEST_START);
      if (at < 0) {
        const held = heldBackLength(search, REQUEST_START);
        visible += this.shown(search.slice(0, search.length - held));
        this.tail = search.slice(search.length - held);
        return visible;
      }
      visible += this.shown(search.slice(0, at));
      rest = search.slice(at + REQUEST_START.length);
      this.tail = '';
      this.parts = [];
      this.inBlock = true;
    }
    return visible;
  }

  /** The end of the answer: held-back text is released; an open block is kept as an unclosed one. */
  end(): string {
    this.afterBlock = false;
    if (this.inBlock) {
      this.blocks.push({ body: this.parts.join(''), closed: false });
      this.inBlock = false;
      this.parts = [];
      this.tail = '';
      return '';
    }
    const held = this.tail;
    this.tail = '';
    return this.shown(held);
  }

  /**
   * Text written after a request, before its result came back, is not shown: it cannot rest on the result,
   * and small models use it to write the result themselves (then believe their invention over the real one).
   */
  private shown(text: string): string {
    return this.blocks.length === 0 ? text : '';
  }

  /** Adds block text; returns what follows the block's end marker ('' while the block goes on). */
  private pushInside(chunk: string): string {
    const search = this.tail + chunk;
    const at = search.indexOf(REQUEST_END);
    if (at < 0) {
      this.parts.push(chunk);
      this.tail = search.slice(-(REQUEST_END.length - 1));
      return '';
    }
    // Where the end marker starts relative to `chunk`: negative when it began in earlier parts.
    const cut = at - this.tail.length;
    const body = cut >= 0 ? this.parts.join('') + chunk.slice(0, cut) : this.parts.join('').slice(0, cut);
    this.blocks.push({ body, closed: true });
    this.inBlock = false;
    this.afterBlock = true;
    this.parts = [];
    this.tail = '';
    return chunk.slice(cut + REQUEST_END.length);
  }
}

/** How many trailing chars of `text` could be the beginning of `marker` (so they wait for the next chunk). */
function heldBackLength(text: string, marker: string): number {
  // Only a tail that starts with the marker's first char can be held; prose rarely has one, so this is a short loop.
  const first = marker.charCodeAt(0);
  for (let at = Math.max(0, text.length - (marker.length - 1)); at < text.length; at++) {
    if (text.charCodeAt(at) === first && marker.startsWith(text.slice(at))) return text.length - at;
  }
  return 0;
}

/** All blocks of a whole text and the text without them (for tests, the tester and replayed history). */
export function splitToolRequests(text: string): { visible: string; blocks: RawToolRequest[] } {
  const stream = new ToolRequestStream();
  const visible = stream.push(text) + stream.end();
  return { visible, blocks: stream.blocks };
}
