/** Where `{name` is being typed, or which `{reference}` an offset is on, in one line of template text. */

/** The start of the variable name being typed after an open `{` that ends at the cursor, or undefined. */
export function openReferenceStart(lineBefore: string): number | undefined {
  const match = /\{([A-Za-z_][A-Za-z0-9_]*)?$/.exec(lineBefore);
  if (!match) return undefined;
  // `{{` is a literal brace, not a reference.
  let braces = 0;
  for (let i = match.index; i >= 0 && lineBefore[i] === '{'; i--) braces++;
  if (braces % 2 === 0) return undefined;
  return match.index + 1;
}

export interface ReferenceSpan {
  variable: string;
  /** Offsets in the line of the `{` and just past the `}`. */
  start: number;
  end: number;
}

/** The `{reference}` of `line` that covers `column` (0-based), skipping `{{` and `}}` escapes. */
export function referenceAt(line: string, column: number): ReferenceSpan | undefined {
  let i = 0;
  while (i < line.length) {
    if (line[i] === '{' && line[i + 1] === '{') {
      i += 2;
      continue;
    }
    if (line[i] === '{') {
      const close = line.indexOf('}', i);
      if (close < 0) return undefined;
      const name = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i + 1, close));
      if (name && column >= i && column <= close) return { variable: name[1], start: i, end: close + 1 };
      i = close + 1;
      continue;
    }
    i++;
  }
  return undefined;
}
