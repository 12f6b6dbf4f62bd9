import type { FileFacts } from '../codeIndexTypes';
import type { QuestionTerms } from './questionTerms';

/**
 * What kind of file a path is, for ranking: "where is X" means the code, so tests, prose and generated code
 * rank below it unless the question asks for them (a Go `_test.go`, a `tests/` folder, `README.md`).
 */

/**
 * Test folders and files, and test projects of their own (`test-shrinker/` at the top, `integration-tests/`,
 * `e2etest/`, a .NET test project's `Serilog.Tests/`, `Foo.UnitTests/` or `Foo.Specs/`): gson's test-shrinker held 4
 * of the 6 best matches for "Where does Gson create an instance of a class that has no no-args constructor?" (its
 * classes are named `ClassWithNoArgsConstructor`). A package named `test-*` below the top or `*-test`
 * (`packages/test-runner/`, a test runner's own code) is code.
 */
const TEST_PATH =
  /(^|\/)(tests?|spec|specs|__tests__|testdata|fixtures?|[^/]+-tests|[^/]+\.(?:unit|integration|functional|acceptance)?tests?|[^/]+\.specs?|e2etests?)\/|^tests?-[^/]+\/|[._-](test|spec)s?\.[a-z]+$|(^|\/)test_[^/]*$|_test\.go$/i;
const PROSE_PATH = /\.(md|mdx|markdown|rst|txt|adoc)$/i;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

export function isProsePath(path: string): boolean {
  return PROSE_PATH.test(path);
}

/** "Where is X" means the code, not its tests, unless the question says tests. */
const TEST_FILE_FACTOR = 0.5;
/** Likewise prose: "where is X" is answered by code; a guide that explains X ranks below it unless the question asks for docs. */
const PROSE_FILE_FACTOR = 0.6;
/** And generated code (protobuf stubs, bindings): the hand-written code they come from is what a user means. */
const GENERATED_FILE_FACTOR = 0.5;

/**
 * And a contract, a file that only declares an interface or annotation type: the code that does what a question asks
 * implements it. Unless the question names one of its definitions and asks for it, not for what happens
 * (QuestionTerms.asksWhatHappens): gson's "…, using the names from @SerializedName?" asks for the code that reads them.
 * A TypeScript declaration file or a Python stub is one too, unless the question asks for typings or stubs.
 */
const CONTRACT_FILE_FACTOR = 0.6;

/** What a file's ranking score is multiplied by for its kind: tests, prose, generated files and contracts below code unless the question asks for them. */
export function roleFactor(
  facts: Pick<FileFacts, 'path' | 'generated' | 'language' | 'symbols'>,
  terms: Pick<QuestionTerms, 'aboutTests' | 'aboutDocs' | 'aboutTypings' | 'asksWhatHappens' | 'identifiers' | 'capitalised' | 'subjects'>,
): number {
  let factor = 1;
  const roles = pathRoles(facts);
  if (!terms.aboutTests && roles.test) factor *= TEST_FILE_FACTOR;
  if (!terms.aboutDocs && roles.prose) factor *= PROSE_FILE_FACTOR;
  if (facts.generated) factor *= GENERATED_FILE_FACTOR;
  const askedFor = terms.aboutTypings && roles.declarationsOnly;
  if (isContract(facts) && !askedFor && (terms.asksWhatHappens || !namesOneOf(terms, facts.symbols))) factor *= CONTRACT_FILE_FACTOR;
  return factor;
}

/**
 * Whether a file's path is a test's, prose's or declarations' alone, per version of its facts (a renamed file gets new
 * ones): a query weighs up to 200 files, and the test pattern is long (it was 4% of the first searches after a load).
 */
export function pathRoles(facts: Pick<FileFacts, 'path'>): PathRoles {
  let roles = rolesOfPath.get(facts);
  if (!roles) {
    const { path } = facts;
    rolesOfPath.set(facts, (roles = { test: isTestPath(path), prose: isProsePath(path), declarationsOnly: DECLARATIONS_ONLY.test(path) }));
  }
  return roles;
}

export interface PathRoles {
  test: boolean;
  prose: boolean;
  /** A TypeScript declaration file or a Python stub, which by its language's rules holds no code. */
  declarationsOnly: boolean;
}

/** Keyed by the facts object, whose path never changes: a renamed or re-indexed file gets new facts (IndexContents.set). */
const rolesOfPath = new WeakMap<Pick<FileFacts, 'path'>, PathRoles>();

/** Languages whose every line of code is inside a type, so a file of interfaces alone holds no code. */
const TYPE_ONLY_LANGUAGES = new Set(['java', 'csharp']);

/**
 * A Java or C# file that only declares interfaces or annotation types, whose methods have no bodies (gson's
 * `InstanceCreator`, `@Expose`): asked "Where does Gson create an instance of a class that has no no-args
 * constructor?", `InstanceCreator.java`, whose doc says those words, ranked above `ConstructorConstructor.java`, which
 * does it. And any TypeScript declaration file or Python stub, which cannot hold code at all: fastify's
 * `types/instance.d.ts`, which types every option of a plugin, ranked first for where a plugin of another version is
 * rejected (`lib/plugin-utils.js`). Other languages' files are left alone: a TypeScript file's interfaces may sit
 * beside a default-exported function the tagger does not see, and Go's methods of an interface's implementations live
 * in other files.
 */
function isContract(facts: Pick<FileFacts, 'path' | 'language' | 'symbols'>): boolean {
  if (pathRoles(facts).declarationsOnly) return true;
  if (!TYPE_ONLY_LANGUAGES.has(facts.language)) return false;
  let contract = contracts.get(facts);
  if (contract === undefined) contracts.set(facts, (contract = declaresOnly(facts.symbols)));
  return contract;
}

/** Files that by their language's rules hold declarations alone: TypeScript's declaration files, Python's stubs. */
const DECLARATIONS_ONLY = /\.d\.[cm]?ts$|\.pyi$/i;

/** Per version of a file's facts (a re-indexed file gets new ones): a query ranks up to 200 files, question after question. */
const contracts = new WeakMap<object, boolean>();

function declaresOnly(symbols: FileFacts['symbols']): boolean {
  // C#'s namespaces are definitions too (`module`), and a type's container in a block namespace: read past them.
  const namespaces = new Set(symbols.filter((symbol) => symbol.kind === 'module').map((symbol) => symbol.name));
  const definitions = symbols.filter((symbol) => symbol.kind !== 'module');
  const types = definitions.filter((symbol) => symbol.container === undefined || namespaces.has(symbol.container));
  // A method that spans more than two lines has a body (a default method), or so long a head that it is left alone.
  return (
    types.length > 0 &&
    types.every((symbol) => symbol.kind === 'interface') &&
    definitions.every((symbol) => symbol.kind === 'interface' || symbol.endLine - symbol.line < 2)
  );
}

/** Whether the question spells the name of one of these definitions: then, unless it asks what happens, it asks for the contract itself. */
function namesOneOf(terms: Pick<QuestionTerms, 'identifiers' | 'capitalised' | 'subjects'>, symbols: FileFacts['symbols']): boolean {
  const names = new Set([...terms.identifiers, ...terms.capitalised, ...terms.subjects]);
  return symbols.some((symbol) => names.has(symbol.name));
}
