/**
 * While a native turn streams, holds back the stretches of answer text that may be a tool call written as
 * text (see textToolCalls.ts), and lets them out once they are complete and judged: a call is taken out, so
 * it never reaches the user (stdout in `codewiki ask`, the chat while it streams); anything else is released
 * as written. Everything else passes straight through.
 *
 * A stretch starts at the beginning of a line with one of the openers below (or with `{` as the answer's
 * first character: a whole answer that is one bare JSON call) and ends with its closer. Only the start of a
 * line shorter than the longest opener ever waits for the next chunk; inside a stretch only a tail shorter
 * than its closer is searched again, so the work stays linear in the answer's length.
 */
export class TextCallHold {
  private lineHead = '';
  private atLineStart = true;
  private atAnswerStart = true;
  private stretch: Stretch | undefined;
  /** A stretch that ended, as judged, waiting to be shown. */
  private released = '';
  private readonly openers: ReadonlyArray<{ opener: string; closer: Closer }>;

  /** `judge` gets a complete stretch and returns what of it the user should see. */
  constructor(
    offeredTools: Iterable<string>,
    private readonly judge: (stretch: string) => string,
  ) {
    this.openers = [
      { opener: '```', closer: { after: '\n', marker: '```', possible: fenceMayBeCall } },
      { opener: '<tool_call>', closer: { marker: '</tool_call>' } },
      { opener: '<tools>', closer: { marker: '</tools>' } },
      // Qwen's chat template wraps tool results in these; the 1.5B model sometimes wraps its own answer the same way.
      { opener: '<tool_response>', closer: { marker: '</tool_response>' } },
      { opener: '<<<[TOOL_REQUEST]>>>', closer: { marker: '<<<[END_TOOL_REQUEST]>>>' } },
      // `<read_file path="…" />`: a call written as an XML element fits on its line.
      ...[...offeredTools].map((name) => ({ opener: `<${name} `, closer: { marker: '\n' } })),
    ];
  }

  /** The next piece of answer text; returns what can be shown now. */
  push(chunk: string): string {
    let visible = '';
    let rest = chunk;
    while (rest) {
      if (this.stretch) {
        rest = this.extendStretch(rest);
        visible += this.takeReleased();
        continue;
      }
      if (!this.atLineStart) {
        const newline = rest.indexOf('\n');
        if (newline < 0) return visible + rest;
        visible += rest.slice(0, newline + 1);
        rest = rest.slice(newline + 1);
        this.atLineStart = true;
        continue;
      }
      const head = this.lineHead + rest;
      const started = this.startAt(head);
      if (started === 'wait') {
        this.lineHead = head;
        return visible;
      }
      this.lineHead = '';
      this.atLineStart = false;
      this.atAnswerStart = false;
      if (started === 'none') rest = head;
      else rest = head.slice(started.length);
    }
    return visible + this.takeReleased();
  }

  /** The end of the answer: whatever is held is judged (an unclosed fence is just text) and let out. */
  end(): string {
    if (this.stretch) {
      const text = this.stretch.text;
      this.stretch = undefined;
      return this.judge(text);
    }
    const head = this.lineHead;
    this.lineHead = '';
    return head;
  }

  private takeReleased(): string {
    const released = this.released;
    this.released = '';
    return released;
  }

  /**
   * At the start of a line: opens a stretch (returns the opener consumed), says the line is plain text,
   * or asks to wait while the line could still turn into an opener.
   */
  private startAt(head: string): string | 'none' | 'wait' {
    if (this.atAnswerStart && head.trimStart().startsWith('{')) {
      this.stretch = { text: head, closer: { marker: '' }, searchFrom: 0, bodyStart: 0, settled: true };
      return head;
    }
    let couldBecome = this.atAnswerStart && /^[ \t]*$/.test(head);
    for (const { opener, closer } of this.openers) {
      if (head.startsWith(opener)) {
        this.stretch = { text: '', closer, searchFrom: 0, bodyStart: closer.after ? -1 : 0, settled: !closer.possible };
        this.extendStretch(opener);
        return opener;
      }
      if (opener.startsWith(head)) couldBecome = true;
    }
    return couldBecome ? 'wait' : 'none';
  }

  /** Adds text to the open stretch; when its closer arrives, judges it into `released` and returns what follows. */
  private extendStretch(chunk: string): string {
    const stretch = this.stretch!;
    stretch.text += chunk;
    const { after, marker, possible } = stretch.closer;
    if (!stretch.settled) {
      const verdict = possible!(stretch.text);
      if (verdict === 'no') {
        // Not a call after all (a fence of TypeScript, say): shown at once, and streamed as usual from here.
        this.stretch = undefined;
        this.released = stretch.text;
        this.atLineStart = stretch.text.endsWith('\n');
        return '';
      }
      stretch.settled = verdict === 'yes';
    }
    if (!marker) return ''; // a bare-JSON answer is held to the end
    if (stretch.bodyStart < 0) {
      const found = stretch.text.indexOf(after!);
      if (found < 0) return '';
      stretch.bodyStart = found + after!.length;
    }
    const from = Math.max(stretch.searchFrom, stretch.bodyStart);
    const at = stretch.text.indexOf(marker, from);
    if (at < 0) {
      stretch.searchFrom = Math.max(from, stretch.text.length - marker.length + 1);
      return '';
    }
    const end = at + marker.length;
    const rest = stretch.text.slice(end);
    this.stretch = undefined;
    this.released = this.judge(stretch.text.slice(0, end));
    this.atLineStart = marker.endsWith('\n');
    return rest;
  }
}

interface Stretch {
  text: string;
  closer: Closer;
  /** Where to look for the closer next: text before it was searched already. */
  searchFrom: number;
  /** Where the closer may start (after `closer.after`); -1 until that has arrived. */
  bodyStart: number;
  /** Whether `closer.possible` has said yes for good (so it is not asked again as the text grows). */
  settled: boolean;
}

interface Closer {
  /** The closer is looked for only after this (a fence's closing ``` comes after its opening line). */
  after?: string;
  /** Ends the stretch; '' holds it to the end of the answer. */
  marker: string;
  /** 'no' as soon as the text so far can no longer be a call, so ordinary code is not held back. */
  possible?: (text: string) => 'yes' | 'no' | 'undecided';
}

/**
 * A fence can hold a call when its info string is empty, json, tool or tool_call and its body starts with `{`.
 * Asked only until it says yes, while the text is an opening line and some white space long.
 */
function fenceMayBeCall(text: string): 'yes' | 'no' | 'undecided' {
  const newline = text.indexOf('\n');
  if (newline < 0) return text.length < 40 ? 'undecided' : 'no'; // a long opening line is an info string no call has
  if (!/^```(?:json|tool_call|tool)?[ \t]*$/.test(text.slice(0, newline))) return 'no';
  const body = text.slice(newline + 1).trimStart();
  if (body === '') return 'undecided';
  return body.startsWith('{') ? 'yes' : 'no';
}
