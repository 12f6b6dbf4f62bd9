import type { Position, PositionIndex } from '../yaml/yamlPositions';

/**
 * The line and column of the `occurrence`-th `needle` inside the string value at `path`, so an
 * error about one `${…}` in a long template points at that `${`, not at the start of the value.
 * The raw text is searched from where the value starts: plain, quoted and block scalars all
 * carry a `${` through unchanged, so the n-th one in the value is the n-th one written. When the
 * text there does not match (an escape sequence built the characters), the value's start is
 * the answer.
 */
export function positionInValue(positions: PositionIndex, path: ReadonlyArray<string | number>, needle: string, occurrence = 0): Position {
  const start = positions.locate(path);
  const text = positions.text;
  let at = offsetOf(text, start);
  for (let seen = 0; ; seen++) {
    at = text.indexOf(needle, at);
    if (at < 0) return start;
    if (seen === occurrence) return positions.positionAt(at);
    at += needle.length;
  }
}

function offsetOf(text: string, { line, column }: Position): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + column - 1;
}
