import type { References } from './markdownParser';

type Definition = References[string];

/** What a render used of the definitions: the labels it looked up (found or not), and when. */
export interface DefinitionUse {
  readonly lookups: readonly string[];
  /** `Definitions.version` when it was rendered. */
  readonly version: number;
}

/**
 * The link reference definitions of an answer that is streaming, and which renders used which.
 * A definition reaches back: `[ref 1]` in an early paragraph becomes a link when `[ref 1]: https://…`
 * arrives at the end. Each render gets its own view of the definitions that records every label
 * markdown-it looks up, so when a label is defined (or a definition still arriving changes) exactly
 * the blocks that looked it up render again, and no render copies the whole set: with thousands of
 * definitions, re-rendering every block with a `[` and copying every definition into each render
 * made streaming such an answer take minutes.
 */
export class Definitions {
  /** Definitions in finished blocks: final, since the first definition of a label wins. */
  private readonly finished: References = Object.create(null) as References;
  /** The open part's definitions at the last refresh: they can still change as text arrives. */
  private open = new Map<string, Definition>();
  /** The version at which each label last changed. */
  private readonly changedAt = new Map<string, number>();
  /** Finished blocks, by index, that looked each label up. */
  private readonly users = new Map<string, Set<number>>();
  /** Goes up whenever a label changes. */
  version = 0;

  /** The definitions for one refresh: the finished ones, and (added by its block parse) the open part's. */
  frame(): References {
    return Object.create(this.finished) as References;
  }

  /** The definitions of `labels` are in blocks that are now finished. */
  finish(frame: References, labels: Iterable<string>): void {
    for (const label of labels) if (Object.hasOwn(frame, label)) this.finished[label] = frame[label];
  }

  /**
   * Compares the open part's definitions in `frame` with the last refresh's; returns the finished
   * blocks that looked up a label that changed (was defined, redefined while arriving, or went away).
   */
  settle(frame: References): Set<number> {
    const now = new Map(Object.keys(frame).map((label) => [label, frame[label]]));
    const changed = [...new Set([...this.open.keys(), ...now.keys()])].filter((label) => !sameDefinition(this.open.get(label), frame[label]));
    this.open = now;
    const affected = new Set<number>();
    if (changed.length === 0) return affected;
    this.version++;
    for (const label of changed) {
      this.changedAt.set(label, this.version);
      for (const index of this.users.get(label) ?? []) affected.add(index);
    }
    return affected;
  }

  /** Whether a label that `use` looked up changed after it was rendered. */
  outdated(use: DefinitionUse): boolean {
    return use.version < this.version && use.lookups.some((label) => (this.changedAt.get(label) ?? 0) > use.version);
  }

  /** Finished block `index` was rendered (again) and used these labels. */
  addUser(index: number, use: DefinitionUse): void {
    for (const label of use.lookups) {
      let users = this.users.get(label);
      if (!users) this.users.set(label, (users = new Set()));
      users.add(index);
    }
  }
}

/**
 * `frame` seen by one render, recording into `lookups` every label read. Writes (markdown-it adds
 * the definitions of the block it renders, which `frame` already has) stay in this render's object.
 */
export function recordingLookups(frame: References, lookups: Set<string>): References {
  return new Proxy(Object.create(frame) as References, {
    get(target, key, receiver) {
      if (typeof key === 'string') lookups.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

function sameDefinition(a: Definition | undefined, b: Definition | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.href === b.href && a.title === b.title);
}
