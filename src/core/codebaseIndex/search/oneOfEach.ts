import type { SymbolDef } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import type { SymbolRef } from './symbolTable';

/** Kinds that have constructors named after them. */
const TYPE_KINDS: ReadonlySet<SymbolDef['kind']> = new Set(['class', 'struct', 'enum']);

/**
 * A name's definitions once per thing it names: without the constructors of a class that is among them (asked where
 * gson's `GsonBuilder` is defined, the class, not also `public GsonBuilder()` and `GsonBuilder(Gson gson)` below it),
 * unless the question asks for constructors; and an overloaded method once (typeorm's four `save` signatures in
 * `EntityManager.ts`), at the longest overload (TypeScript's implementation, not its first signature). Overloads are
 * definitions of one name and kind in the same definition (by its lines: Java's tags give a constructor no container,
 * and two nested `Builder`s are two containers), in a language that has them. Each repeat cost a small model's list
 * a line of 30–50 tokens, and the user a card.
 */
export function oneOfEach(contents: IndexContents, refs: SymbolRef[], keepConstructors: boolean): SymbolRef[] {
  const symbolOf = (ref: SymbolRef) => contents.byId(ref.file)?.symbols[ref.index];
  const listedTypes = new Set(refs.filter((ref) => TYPE_KINDS.has(symbolOf(ref)?.kind ?? 'function')).map((ref) => `${ref.file}:${ref.index}`));
  const groups = new Map<string, SymbolRef[]>();
  const kept: Array<SymbolRef | string> = [];
  for (const ref of refs) {
    const symbol = symbolOf(ref);
    if (!symbol) {
      kept.push(ref);
      continue;
    }
    const owner = enclosing(contents, ref);
    const ownerSymbol = owner === undefined ? undefined : contents.byId(ref.file)!.symbols[owner];
    const constructs = symbol.kind === 'method' && ownerSymbol?.name === symbol.name && listedTypes.has(`${ref.file}:${owner}`);
    if (constructs && !keepConstructors) continue;
    const key = `${ref.file}:${owner ?? -1}:${symbol.kind}:${symbol.name}`;
    const group = groups.get(key);
    if (group) group.push(ref);
    else {
      groups.set(key, [ref]);
      kept.push(key);
    }
  }
  return kept.flatMap((item) => (typeof item === 'string' ? representatives(contents, groups.get(item)!, symbolOf) : [item]));
}

/**
 * Languages where one name in one class can be several overloads. In the others the same name twice in one place is
 * two things: Rust's `fmt` in `impl Display` and in `impl Debug` (an impl block is no definition), Python's property
 * getter and setter, C's `#ifdef` variants of a function.
 */
const OVERLOADING_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'java', 'csharp', 'cpp', 'kotlin', 'swift', 'scala', 'dart']);

/**
 * Overloads as one: the longest, the first of equals. TypeScript's implementation is longer than its signatures (a
 * signature may take several lines too), and of Java's the one the others call is usually the longest.
 */
function representatives(contents: IndexContents, group: SymbolRef[], symbolOf: (ref: SymbolRef) => SymbolDef | undefined): SymbolRef[] {
  if (group.length === 1 || !OVERLOADING_LANGUAGES.has(contents.byId(group[0]!.file)!.language)) return group;
  const length = (ref: SymbolRef) => symbolOf(ref)!.endLine - symbolOf(ref)!.line;
  return [group.reduce((best, ref) => (length(ref) > length(best) ? ref : best))];
}

/** The index of the innermost other definition of the file whose lines hold this one's first line, if any. */
function enclosing(contents: IndexContents, ref: SymbolRef): number | undefined {
  const symbols = contents.byId(ref.file)!.symbols;
  const inner = symbols[ref.index]!;
  let best: number | undefined;
  symbols.forEach((symbol, index) => {
    if (index === ref.index || symbol.line >= inner.line || symbol.endLine < inner.line) return;
    if (best === undefined || symbol.line > symbols[best]!.line) best = index;
  });
  return best;
}
