import type { IndexContents } from '../indexContents';
import { fileStem, nameKey } from './fileAbout';
import { isProsePath, isTestPath } from './fileRoles';
import type { QuestionTerms } from './questionTerms';
import type { SymbolRef } from './symbolTable';

/**
 * The names a question spells like code, and its capitalised words (a sentence's subject only when it is not the
 * project's name), looked up as definitions: spelled exactly, or (`sameCase: false`, for ranking only) in another
 * case. A qualified name (`HandlerStack::resolve`) is the definition inside its qualifier. Definitions in tests and
 * headings in docs are left out when the code has one, unless the question is about tests or docs; declarations
 * (C prototypes) when the name has a body.
 */
export function exactDefinitions(contents: IndexContents, terms: QuestionTerms, sameCase = true): SymbolRef[] {
  const refs: SymbolRef[] = [];
  const qualifiers = new Set(terms.qualifiers);
  /** Qualifiers with nothing of the question's inside them: then they may be what it asks for. */
  const unmatched = new Set<string>();
  for (const name of terms.identifiers) {
    if (qualifiers.has(name)) continue;
    const exact = contents.symbols.exact(name);
    let found = exact.length || sameCase ? exact : contents.symbols.sameLetters(name);
    const inside = new Set<SymbolRef>();
    for (const qualifier of terms.qualifiedBy.get(name) ?? []) {
      const within = insideQualifier(contents, found, qualifier);
      if (within.length) for (const ref of within) inside.add(ref);
      else unmatched.add(qualifier);
    }
    if (inside.size) found = [...inside];
    refs.push(...found);
  }
  // `Sinatra` in `Sinatra::Namespace` only says where to look (every file of the gem reopens it), unless nothing of
  // that name is inside it: then `Session` in `Session.send()` is the best guess, as it was before names were qualified.
  for (const name of unmatched) refs.push(...contents.symbols.exact(name));
  for (const name of terms.capitalised) refs.push(...contents.symbols.exact(name));
  for (const name of terms.subjects) if (!isProjectName(contents, name)) refs.push(...contents.symbols.exact(name));
  const inKind = refs.filter((ref) => {
    const path = contents.byId(ref.file)?.path ?? '';
    return (terms.aboutTests || !isTestPath(path)) && (terms.aboutDocs || !isProsePath(path));
  });
  return bodiesOverDeclarations(contents, inKind.length ? inKind : refs);
}

/**
 * Of a qualified name's definitions, those inside what qualifies it (`resolve` in `HandlerStack::resolve`: the method
 * of `HandlerStack`, not every `resolve`): by their container, or, when none is recorded, by the file named after it
 * (`handler_stack.rb`, `HandlerStack.php`).
 */
function insideQualifier(contents: IndexContents, refs: SymbolRef[], qualifier: string): SymbolRef[] {
  const key = nameKey(qualifier);
  return refs.filter((ref) => {
    const facts = contents.byId(ref.file);
    if (!facts) return false;
    const container = facts.symbols[ref.index]?.container;
    // Without case, as the ranking looks names up (`handlerStack::resolve`); `Rack::Protection` is inside Protection.
    if (container) return ownerKey(container) === key;
    return fileStem(facts.path) === key;
  });
}

/**
 * A name's definitions with a body, without its declarations (C prototypes in a header) when it has any: asked
 * where `uv_run` is defined, libuv's answer is `int uv_run(…) {…}` in src/unix/core.c and src/win/core.c, not
 * `UV_EXTERN int uv_run(…);` in include/uv.h. A name only declared keeps its declarations.
 */
function bodiesOverDeclarations(contents: IndexContents, refs: SymbolRef[]): SymbolRef[] {
  const symbolOf = (ref: SymbolRef) => contents.byId(ref.file)?.symbols[ref.index];
  const withBody = new Set<string>();
  for (const ref of refs) {
    const symbol = symbolOf(ref);
    if (symbol && !symbol.declaration) withBody.add(symbol.name);
  }
  return refs.filter((ref) => {
    const symbol = symbolOf(ref);
    return !symbol?.declaration || !withBody.has(symbol.name);
  });
}

/** A container by its last part, without case: `ns::Foo` and `Foo` are one class. */
export function ownerKey(container: string | undefined): string | undefined {
  return container === undefined ? undefined : nameKey(container.split(/::|\./).at(-1)!);
}

/**
 * Whether a word names the project: a folder that holds more than half of its files (`gson` in gson's
 * `gson/src/main/java/com/google/gson/…`). "Where does Gson decide …" in gson asks for the code behind the project's
 * name; "How can Engine be configured?" in a project with no folder named engine asks for `Engine`. A substring test
 * per path, no arrays: it runs on every question with such a subject, over every indexed path.
 */
function isProjectName(contents: IndexContents, word: string): boolean {
  const folder = `/${word.toLowerCase()}/`;
  let inFolder = 0;
  for (const path of contents.paths()) if (`/${path.toLowerCase()}`.includes(folder)) inFolder++;
  return inFolder * 2 > contents.fileCount;
}
