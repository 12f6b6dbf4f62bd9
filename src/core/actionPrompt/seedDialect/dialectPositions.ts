import { type Position, PositionIndex } from '../../yaml/yamlPositions';

export type FieldPath = Array<string | number>;

/**
 * Where each part of the translated prompt was written in the seed-002 file. The translator
 * records a rule for every field it emits (`tool_chain[2].input` came from `steps[2].params`);
 * a path is mapped by its longest recorded prefix, the rest carried over unchanged, so
 * `tool_chain[2].input.query` lands on `steps[2].params.query`.
 */
export class DialectPathMap {
  private readonly rules = new Map<string, FieldPath>();

  add(translated: FieldPath, written: FieldPath): void {
    this.rules.set(key(translated), written);
  }

  toWritten(path: ReadonlyArray<string | number>): FieldPath {
    for (let length = path.length; length >= 0; length--) {
      const written = this.rules.get(key(path.slice(0, length)));
      if (written) return [...written, ...path.slice(length)];
    }
    return [...path];
  }
}

function key(path: ReadonlyArray<string | number>): string {
  return JSON.stringify(path);
}

/**
 * The positions of a translated prompt: the loader and the engine ask for CodeWiki field paths
 * (`tool_chain[1].tool`) and get the line and column in the file the user wrote, so every error
 * about a seed-002 chain points into that file.
 */
export class DialectPositions extends PositionIndex {
  constructor(
    readonly written: PositionIndex,
    readonly paths: DialectPathMap,
  ) {
    super(written.text, undefined);
  }

  override locate(path: ReadonlyArray<string | number>, key = false): Position {
    return this.written.locate(this.paths.toWritten(path), key);
  }

  /** Paths in the file as written: the text is the user's, not the translation's. */
  override pathAt(offset: number): Array<string | number> {
    return this.written.pathAt(offset);
  }
}

/** A field path as the user wrote it: mapped back for a translated seed-002 chain, unchanged otherwise. */
export function writtenPath(positions: PositionIndex, path: ReadonlyArray<string | number>): FieldPath {
  return positions instanceof DialectPositions ? positions.paths.toWritten(path) : [...path];
}
