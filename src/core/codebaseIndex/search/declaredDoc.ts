import type { SymbolDef } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import { tagQueryForPath } from '../languages/languageSpecs';
import { ownerKey } from './exactDefinitions';
import { isTestPath } from './fileRoles';

const CALLABLE: ReadonlySet<SymbolDef['kind']> = new Set(['function', 'method']);

/**
 * What a C or C++ body without a doc comment does, from a declaration of it that has one: C documents a function
 * where it declares it (libuv's idna.h says "Convert a UTF-8 domain name to IDNA 2008 / Punycode." over
 * `uv__idna_toascii`, whose body in idna.c has no comment). The declaration must be of the same thing: a function or
 * method of the same name in the same class (`Foo::bar` or `ns::Foo::bar` outside it, `bar` declared inside it), on
 * the same side of the tests, and in the same file for a `static` body. Overloads documented differently give nothing.
 */
export function declaredDoc(contents: IndexContents, body: SymbolDef, bodyPath: string): string | undefined {
  if (body.declaration || tagQueryForPath(bodyPath)?.grammar !== 'cpp') return undefined;
  const fileOnly = isStaticFunction(body);
  const docs = new Set<string>();
  for (const ref of contents.symbols.exact(body.name)) {
    const facts = contents.byId(ref.file);
    const symbol = facts?.symbols[ref.index];
    if (!facts || !symbol?.declaration || !symbol.doc) continue;
    if (fileOnly ? facts.path !== bodyPath : isTestPath(facts.path) !== isTestPath(bodyPath)) continue;
    const sameKind = symbol.kind === body.kind || (CALLABLE.has(symbol.kind) && CALLABLE.has(body.kind));
    if (sameKind && ownerKey(symbol.container) === ownerKey(body.container)) docs.add(symbol.doc);
  }
  return docs.size === 1 ? [...docs][0] : undefined;
}

/**
 * A C function seen only in its own file: `static` before its name (`static inline int f(`, not `int a[static 10]`
 * among its parameters). A class's static method is a `method`, and is not one.
 */
function isStaticFunction(body: SymbolDef): boolean {
  if (body.kind !== 'function') return false;
  const escaped = body.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); // `operator()`, `operator[]`
  const at = body.signature.search(new RegExp(`(?<![\\w~])${escaped}\\s*\\(`));
  return at > 0 && /\bstatic\b/.test(body.signature.slice(0, at));
}
