import type { FileFacts, SymbolDef } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import type { SymbolRef } from './symbolTable';

/** Kinds that have constructors named after them. */
const TYPE_KINDS: ReadonlySet<SymbolDef['kind']> = new Set(['class', 'struct', 'enum']);

/**
 * Languages whose tree-sitter tags can hold several overloads of one name in one class. Elsewhere the same name twice
 * in one place is two things: Rust's `fmt` in `impl Display` and in `impl Debug` (an impl block is no definition),
 * Python's property getter and setter, C's `#ifdef` variants of a function. A `.h` file counts as C, so C++ overloads
 * declared in one stay apart. (Kotlin, Swift, Scala and Dart are read by the outline, whose definitions have no extent
 * to tell their classes apart.)
 */
const OVERLOADING_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'java', 'csharp', 'cpp']);

export interface OneOfEach {
  /** The definitions to show, in their order. */
  kept: SymbolRef[];
  /** Those left out as repeats of a kept one: no list line shows them either. */
  repeats: SymbolRef[];
}

/**
 * A name's definitions once per thing it names, for the cards and the list: without the constructors of a class that
 * is among them (asked where gson's `GsonBuilder` is defined, the class, not also `public GsonBuilder()` and
 * `GsonBuilder(Gson gson)` below it), unless the question asks about constructors; and an overloaded method once
 * (typeorm's four `save` signatures in `EntityManager.ts`), at its longest overload (TypeScript's implementation, not
 * its first signature). Overloads share a file, container, kind and name, and the innermost definition around them
 * (by lines: Java's tags give a constructor no container, and two nested `Builder`s are two classes). Each repeat cost
 * a small model's list a line of 30–50 tokens, and the user a card. The ranking counts every definition still.
 */
export function oneOfEach(contents: IndexContents, refs: SymbolRef[], keepConstructors: boolean): OneOfEach {
  const symbolOf = (ref: SymbolRef) => contents.byId(ref.file)?.symbols[ref.index];
  const unique = [...new Map(refs.map((ref) => [`${ref.file}:${ref.index}`, ref])).values()];
  const typeNames = new Set(unique.filter((ref) => TYPE_KINDS.has(symbolOf(ref)?.kind ?? 'function')).map((ref) => `${ref.file}:${symbolOf(ref)!.name}`));
  const repeats: SymbolRef[] = [];
  const groups = new Map<string, SymbolRef[]>();
  const order: Array<SymbolRef | string> = [];
  for (const ref of unique) {
    const symbol = symbolOf(ref);
    const facts = contents.byId(ref.file);
    if (!symbol || !facts) {
      order.push(ref);
      continue;
    }
    // The innermost definition around it is looked for only where it decides something: a file has up to 2,000.
    const constructorLike = symbol.kind === 'method' && typeNames.has(`${ref.file}:${symbol.name}`);
    const overloadable = canOverload(facts);
    const owner = constructorLike || overloadable ? enclosing(facts.symbols, ref.index) : undefined;
    if (
      !keepConstructors &&
      constructorLike &&
      owner !== undefined &&
      TYPE_KINDS.has(facts.symbols[owner]!.kind) &&
      facts.symbols[owner]!.name === symbol.name
    ) {
      repeats.push(ref);
      continue;
    }
    if (!overloadable) {
      order.push(ref);
      continue;
    }
    const key = `${ref.file}:${owner ?? -1}:${symbol.container ?? ''}:${symbol.kind}:${symbol.name}`;
    const group = groups.get(key);
    if (group) group.push(ref);
    else {
      groups.set(key, [ref]);
      order.push(key);
    }
  }
  const kept = order.flatMap((item) => {
    if (typeof item !== 'string') return [item];
    const group = groups.get(item)!;
    const length = (ref: SymbolRef) => symbolOf(ref)!.endLine - symbolOf(ref)!.line;
    const longest = group.reduce((best, ref) => (length(ref) > length(best) ? ref : best));
    repeats.push(...group.filter((ref) => ref !== longest));
    return [longest];
  });
  return { kept, repeats };
}

/**
 * The doc of a TypeScript overload for the implementation the card shows, which has none: TypeScript documents its
 * signatures. The first doc of the same name, kind and container, in the same class by its lines (two nested classes
 * of one name are two). Java's and C#'s overloads document themselves; C++'s declarations lend theirs (declaredDoc.ts).
 */
export function overloadDoc(facts: FileFacts, index: number): string | undefined {
  const symbol = facts.symbols[index];
  if (!symbol || symbol.doc || facts.language !== 'typescript' || !canOverload(facts)) return undefined;
  const owner = enclosing(facts.symbols, index);
  return facts.symbols.find(
    (other, at) =>
      at !== index &&
      other.doc &&
      other.name === symbol.name &&
      other.kind === symbol.kind &&
      other.container === symbol.container &&
      enclosing(facts.symbols, at) === owner,
  )?.doc;
}

/** Tree-sitter's tags in a language with overloads: the outline (a grammar that failed) gives no extents to tell classes apart. */
function canOverload(facts: Pick<FileFacts, 'language' | 'parsedBy'>): boolean {
  return facts.parsedBy === 'tree-sitter' && OVERLOADING_LANGUAGES.has(facts.language);
}

/** The index of the innermost other definition of the file whose lines hold this one's first line, if any. */
function enclosing(symbols: readonly SymbolDef[], index: number): number | undefined {
  const inner = symbols[index]!;
  let best: number | undefined;
  symbols.forEach((symbol, at) => {
    if (at === index || symbol.line >= inner.line || symbol.endLine < inner.line) return;
    if (best === undefined || symbol.line > symbols[best]!.line) best = at;
  });
  return best;
}
