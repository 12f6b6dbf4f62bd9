/**
 * Where a cursor is in a YAML document that is being typed, and so usually does not parse: the
 * field path of the mapping (or sequence item) it is in, and whether it is on a key, on a value or
 * inside a block of text. Read from indentation alone, line by line, because completion is asked
 * for exactly when the document is half written. Parsed positions (yamlPositions.ts) serve
 * everything that needs a document that parses.
 */
export type CursorPlace =
  /** Typing a key (or a bare sequence item) of the mapping at `path`. */
  | { kind: 'key'; path: Array<string | number>; prefix: string; start: number; sequenceItem: boolean }
  /** Typing the value of `key` in the mapping at `path`; `prefix` is the value so far on this line. */
  | { kind: 'value'; path: Array<string | number>; key: string; prefix: string; start: number }
  /** Inside a multi-line value (a `|` or `>` block) of the field at `path`. */
  | { kind: 'text'; path: Array<string | number> };

interface LineShape {
  indent: number;
  /** Column of each `- ` that opens a sequence item on this line. */
  dashes: number[];
  /** Column where the content after indentation and dashes starts. */
  content: number;
  /** The key when the content is `key:` or `key: value`. */
  key?: string;
  blank: boolean;
}

const KEY_LINE = /^((?:[A-Za-z0-9_.-]+)|"[^"]*"|'[^']*')\s*:(?:\s|$)/;

function shapeOf(line: string): LineShape {
  let i = 0;
  while (line[i] === ' ') i++;
  const indent = i;
  const dashes: number[] = [];
  while (line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)) {
    dashes.push(i);
    i += 1;
    while (line[i] === ' ') i++;
  }
  const rest = line.slice(i);
  const blank = rest.trim() === '' && dashes.length === 0 ? true : rest.startsWith('#') && dashes.length === 0;
  const match = KEY_LINE.exec(rest);
  const key = match ? match[1].replace(/^["']|["']$/g, '') : undefined;
  return { indent, dashes, content: i, key, blank };
}

/** The path of the mapping whose keys start at column `column` on line `lineIndex` (that line's own dashes included). */
function containerPath(lines: string[], lineIndex: number, column: number, ownDashes: number[]): Array<string | number> {
  const path: Array<string | number> = [];
  // Either inside a mapping whose keys start at `limit`, or inside a sequence whose dashes are at `dash`.
  let mode = 'mapping' as 'mapping' | 'sequence';
  let limit = column;
  let dash = -1;
  let items = 0;
  const enterSequence = (dashes: number[]) => {
    // Nested `- - x` items: the innermost dash is the item this line opens.
    mode = 'sequence';
    dash = dashes[dashes.length - 1];
    items = 0;
  };
  if (ownDashes.length) enterSequence(ownDashes);
  for (let i = lineIndex - 1; i >= 0; i--) {
    const line = shapeOf(lines[i]);
    if (line.blank) continue;
    if (mode === 'sequence') {
      if (line.dashes.includes(dash)) {
        items++;
        continue;
      }
      if (line.indent > dash) continue;
      if (line.indent === dash && (line.dashes.length || !line.key)) continue;
      path.unshift(items);
      if (line.key === undefined) return path;
      path.unshift(line.key);
      if (line.dashes.length) enterSequence(line.dashes);
      else {
        mode = 'mapping';
        limit = line.content;
      }
      continue;
    }
    // mapping mode
    if (line.content === limit && line.dashes.length && line.dashes[line.dashes.length - 1] < limit) {
      enterSequence(line.dashes);
      continue;
    }
    if (line.content < limit && line.key !== undefined) {
      path.unshift(line.key);
      if (line.dashes.length) enterSequence(line.dashes);
      else limit = line.content;
      continue;
    }
    if (line.indent < limit && line.key === undefined && !line.dashes.length) return path; // a stray line: stop here
  }
  if (mode === 'sequence') path.unshift(items);
  return path;
}

/** Where `offset` is in `text` (see CursorPlace). */
export function cursorPlaceAt(text: string, offset: number): CursorPlace {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop(); // the empty piece after the last newline before this line
  lines.push(before);
  const lineIndex = lines.length - 1;
  const shape = shapeOf(before);

  const keyValue = /^((?:[A-Za-z0-9_.-]+)|"[^"]*"|'[^']*')\s*:(\s+)(.*)$/.exec(before.slice(shape.content));
  if (keyValue) {
    const key = keyValue[1].replace(/^["']|["']$/g, '');
    const valueStart = shape.content + keyValue[1].length + before.slice(shape.content + keyValue[1].length).indexOf(':') + 1 + keyValue[2].length;
    return { kind: 'value', path: containerPath(lines, lineIndex, shape.content, shape.dashes), key, prefix: keyValue[3], start: lineStart + valueStart };
  }
  const typing = before.slice(shape.content);
  if (/^[A-Za-z0-9_-]*$/.test(typing)) {
    return {
      kind: 'key',
      path: containerPath(lines, lineIndex, shape.content, shape.dashes),
      prefix: typing,
      start: lineStart + shape.content,
      sequenceItem: shape.dashes.length > 0,
    };
  }
  // Text of a block scalar (or a flow value that spans lines): the owner is the first key to the left above.
  const column = shape.dashes.length ? shape.content : shape.indent;
  return { kind: 'text', path: containerPath(lines, lineIndex, column, []) };
}
