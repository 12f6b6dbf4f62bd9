import type { FileFacts } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import { definitionWords } from './definitionWords';
import { exactDefinitions } from './exactDefinitions';
import { pathRoles, roleFactor } from './fileRoles';
import type { FileTextReader } from './fileTexts';
import { contentStems, nameStems } from './identifierWords';
import type { NamesakeRole } from './namesakeCode';
import { questionTerms, withoutContractions, type QuestionTerms } from './questionTerms';
import type { SymbolRef } from './symbolTable';
import { addProximity } from './termProximity';

export interface RankedFile {
  id: number;
  score: number;
  /** Stemmed query terms the file's text matched. */
  terms: string[];
  /** Definitions in it named exactly as the question spells a name. */
  exact: SymbolRef[];
}

export interface RankOptions {
  limit: number;
  useGraph: boolean;
  /**
   * Give files that define a name the question spells exactly their bonus, and the code a matching test, doc page or
   * C header is named after its share (default true; the evaluation turns it off to measure BM25 alone).
   */
  useExactNames?: boolean;
  pathPrefix?: string;
  /** Reads a file's text, for the proximity of the query's words in the best candidates; without it, no file is read. */
  readText?: FileTextReader;
}

const TEXT_CANDIDATES = 200;
/** The text ranks that seed the graph walk: the files the question is most plainly about. */
const GRAPH_SEEDS = 20;
/** How much the graph rank adds to a file's text score (both scaled to 1 at the best file); 0.15–0.3 measured best on bench/eval, 1 worst. */
const GRAPH_WEIGHT = 0.3;
/**
 * The code a matching test file tests gets at least this share of the test's score: above the test itself once tests
 * are halved (TEST_FILE_FACTOR), below code that matches as well on its own. Measured on bench/eval, 0.4–0.6 alike
 * (history questions first: gin 16 → 17, guzzle 14 → 15, serilog 6 → 7 of 20; written: guzzle 7 → 8 of 10, at 0.6);
 * 1 costs gin and serilog a written question each.
 */
const TESTED_CODE_SHARE = 0.6;
/**
 * Likewise for the code a matching doc page is named after (`timer.rst`, `timer.c`): 1.25× the page once prose is
 * weighed at 0.6 (PROSE_FILE_FACTOR). Measured on bench/eval: libuv's written question on expired timers first
 * (timer.rst ranked first; its list showed fsevents.c); no other first answer moved, of 90 written and 360 history
 * questions (0.6, which ties the two, moved none).
 */
const DOCUMENTED_CODE_SHARE = 0.75;
/**
 * And for the source of a C or C++ header (`src/idna.h`, `src/idna.c`): more than the header, whose prototypes and
 * their doc comments matched, since the bodies are what a question about what the code does wants. Measured on
 * bench/eval: on libuv (C) at 1.25 the Punycode question lists `src/idna.c` first (not listed before), no other first
 * answer moved of 90 written and 360 history questions; at 0.75 and 1 it is in the top 5 but not first; at 1.5 one
 * history question and at 2 three lose their first file. On leveldb (C++) written questions first 6 → 8 of 10 (7 at 1
 * and at 1.5), history 11 → 10 of 20 (a commit that changed a header alone).
 */
const DECLARED_CODE_SHARE = 1.25;
/** Per way of lending: the share lent, and when the lender itself is what the question asks for (then it lends nothing). */
const LENDING: Record<NamesakeRole, { share: number; askedFor: (terms: QuestionTerms) => boolean }> = {
  tests: { share: TESTED_CODE_SHARE, askedFor: (terms) => terms.aboutTests },
  documents: { share: DOCUMENTED_CODE_SHARE, askedFor: (terms) => terms.aboutDocs },
  declares: { share: DECLARED_CODE_SHARE, askedFor: (terms) => terms.aboutDeclarations },
};
/** A file that defines a name the question spells exactly gets this much more. */
const EXACT_BONUS = 1;
/** And one whose definition's name the question's words cover, up to this much (all of the name's words). */
const NAMED_BY_QUESTION_WEIGHT = 0.5;

/**
 * Files ranked for a question or a name: BM25 over paths, names, doc comments, heads and bodies; a bonus
 * for files that define a name the question spells exactly, and for those with a definition whose name
 * the question's words cover; then, with the graph, a walk personalized to the best of them (Aider's and
 * LocAgent's way of finding what the matches lean on); tests, prose and generated files last.
 */
export function rankFiles(contents: IndexContents, asked: string, options: RankOptions): RankedFile[] {
  // The text index and the stems read it as questionTerms does: "isn't" is "is", not "isn" and a `t` every loop matches.
  const query = withoutContractions(asked);
  const terms = questionTerms(query);
  /** The question's words, stemmed: what definition names and neighbouring lines are matched against. */
  const wanted: ReadonlySet<string> = new Set(contentStems(query));
  const scores = new Map<number, RankedFile>();
  const hits = contents.text.query(query, TEXT_CANDIDATES);
  const top = hits[0]?.score ?? 1;
  for (const hit of hits) scores.set(hit.id, { id: hit.id, score: hit.score / top, terms: hit.terms, exact: [] });
  if (options.useExactNames !== false) addExactDefinitions(contents, terms, scores);
  if (options.useExactNames !== false) addNamedByQuestion(contents, wanted, scores);
  if (options.useExactNames !== false) lendToNamesakeCode(contents, scores, terms);
  if (options.useGraph && scores.size > 0) addGraphRank(contents, scores);
  const ranked: RankedFile[] = [];
  for (const file of scores.values()) {
    const facts = contents.byId(file.id);
    if (!facts || (options.pathPrefix && !underPrefix(facts.path, options.pathPrefix))) continue;
    file.score *= roleFactor(facts, terms);
    ranked.push(file);
  }
  const byScore = (a: RankedFile, b: RankedFile) => b.score - a.score || contents.byId(a.id)!.path.localeCompare(contents.byId(b.id)!.path);
  ranked.sort(byScore);
  if (options.readText) {
    addProximity(contents, wanted, ranked, options.readText, terms);
    if (options.useExactNames !== false) lendProximityToNamesakeCode(contents, ranked, terms, options.pathPrefix);
    ranked.sort(byScore);
  }
  return ranked.slice(0, options.limit);
}

function addExactDefinitions(contents: IndexContents, terms: QuestionTerms, scores: Map<number, RankedFile>): void {
  const refs = exactDefinitions(contents, terms, false);
  const files = new Map<number, SymbolRef[]>();
  for (const ref of refs) files.set(ref.file, [...(files.get(ref.file) ?? []), ref]);
  // A name defined in one file points at it; one defined in twenty says little about each.
  const share = EXACT_BONUS / Math.max(1, Math.sqrt(files.size));
  for (const [id, found] of files) {
    const entry = scores.get(id) ?? { id, score: 0, terms: [], exact: [] };
    entry.score += share;
    entry.exact = found;
    scores.set(id, entry);
  }
}

/**
 * Words a name may hold that say nothing of what it does: ripgrep's `per_match_one_line` was a name the words of
 * "Where is the output for --json mode written, one JSON message per match?" cover, and outranked its JSON printer.
 * They still count everywhere else (typeorm's `OneToOne`).
 */
const NAMELESS_WORDS = new Set(['one', 'per']);

/**
 * A file gains when one of its definitions is named almost entirely by the question's words: "where is the
 * default User-Agent string built" and `default_user_agent`, "lazy relations … loads" and `RelationLoader`.
 * BM25 over a whole file dilutes such a name among everything else the file says; the name alone does not.
 * Counted from two matching words, so one common word (`run`, `matched`) never decides, and words that say nothing
 * of what a name does (NAMELESS_WORDS) are not among them.
 */
function addNamedByQuestion(contents: IndexContents, wanted: ReadonlySet<string>, scores: Map<number, RankedFile>): void {
  if (wanted.size < 2) return;
  for (const file of scores.values()) {
    const facts = contents.byId(file.id);
    if (!facts) continue;
    let best = 0;
    for (const stems of definitionNameStems(facts)) {
      if (stems.length === 0) continue;
      let matched = 0;
      for (const stem of stems) if (wanted.has(stem) && !NAMELESS_WORDS.has(stem)) matched++;
      if (matched >= 2) best = Math.max(best, matched / stems.length);
    }
    file.score += NAMED_BY_QUESTION_WEIGHT * best;
  }
}

/**
 * Computes ahead what the ranking keeps per version of a file (its definitions' name stems and words, its path's
 * role), so that the first questions after a load do not: CodebaseIndex.prepareForQuestions. The words of every
 * definition take about 7 MB on terraform's 24,669 and are read only for the files whose text a question reads, but
 * without them the first searches ran slower (in one thread, p95 over the first 95 queries 26–27 ms against 21–24).
 */
export function prepareForRanking(facts: FileFacts): void {
  definitionNameStems(facts);
  pathRoles(facts);
  for (const symbol of facts.symbols) definitionWords(symbol);
}

/** Each definition's name stems, per version of a file: a re-indexed file gets new facts, so this never goes stale. */
const nameStemsOfFile = new WeakMap<FileFacts, string[][]>();

/** Computed once per file, not once per search: the same files come up for question after question. */
function definitionNameStems(facts: FileFacts): string[][] {
  let stems = nameStemsOfFile.get(facts);
  if (!stems) {
    stems = facts.symbols.map((symbol) => nameStems(symbol.name));
    nameStemsOfFile.set(facts, stems);
  }
  return stems;
}

/**
 * A test file that matches the question points at the code it tests: serilog's `PropertyValueConverterTests.cs`, whose
 * test names say "maximum string length" and "captured", ranked above `PropertyValueConverter.cs`, which cuts the
 * string; a doc page, at the code it documents; a C header, at its source (namesakeCode.ts). That code gets
 * TESTED_CODE_SHARE of the test's score (DOCUMENTED_CODE_SHARE of the page's, DECLARED_CODE_SHARE of the header's)
 * when it has less, before the graph walk (which then also starts from it) and again once proximity is counted
 * (lendProximityToNamesakeCode). Not when the question asks for tests (for docs, from a page; for a header or a
 * declaration, from a header), or asks for a name this file defines (`Where is TestParseURL?`): then the test, page or
 * header is the answer. A name said in a question about something else still lends: gin's history question "add
 * support for encoding.UnmarshalText in uri/query binding" names a method only `form_mapping_test.go` defines, and
 * means `form_mapping.go`.
 */
function lendToNamesakeCode(
  contents: IndexContents,
  scores: Map<number, RankedFile>,
  terms: QuestionTerms,
  factor: (facts: FileFacts) => number = () => 1,
): void {
  for (const lender of [...scores.values()]) {
    if (lender.exact.length > 0 && terms.asksForNames) continue;
    const facts = contents.byId(lender.id);
    if (!facts) continue;
    const namesake = contents.namesakeOf(facts);
    if (namesake === undefined || LENDING[namesake.role].askedFor(terms)) continue;
    const namesakeFacts = contents.byId(namesake.id)!;
    const entry = scores.get(namesake.id) ?? { id: namesake.id, score: 0, terms: [], exact: [] };
    // After the role factors (the second pass) a test's score is halved for being a test, a page's cut for being
    // prose: its share is of what it matched, weighed as the code is. (A header is code, and weighed as its source.)
    entry.score = Math.max(entry.score, (LENDING[namesake.role].share * lender.score * factor(namesakeFacts)) / factor(facts));
    scores.set(namesake.id, entry);
  }
}

/**
 * The same share of the test's (or page's, or header's) final score: a test's few lines that say every word of the
 * question (its method names) add more proximity than the code that does it, in other words, ever can. Lending it
 * before the graph only, and not again here, left guzzle's `RedirectMiddleware.php` and serilog's
 * `PropertyValueConverter.cs` below their tests (bench/eval: one written question and three from history fewer first
 * than with both).
 */
function lendProximityToNamesakeCode(contents: IndexContents, ranked: RankedFile[], terms: QuestionTerms, pathPrefix: string | undefined): void {
  const scores = new Map(ranked.map((file) => [file.id, file]));
  const listed = new Set(scores.keys());
  lendToNamesakeCode(contents, scores, terms, (facts) => roleFactor(facts, terms));
  for (const [id, file] of scores) {
    if (listed.has(id)) continue;
    const facts = contents.byId(id)!;
    if (!pathPrefix || underPrefix(facts.path, pathPrefix)) ranked.push(file);
  }
}

function addGraphRank(contents: IndexContents, scores: Map<number, RankedFile>): void {
  const seeds = new Map<number, number>();
  for (const file of [...scores.values()].sort((a, b) => b.score - a.score).slice(0, GRAPH_SEEDS)) seeds.set(file.id, file.score);
  const graph = contents.fileGraph();
  if (graph.graph.nodes === 0) return;
  const rank = graph.rankAround(seeds);
  let best = 0;
  for (const id of scores.keys()) best = Math.max(best, rank.get(id) ?? 0);
  if (best === 0) return;
  for (const file of scores.values()) file.score += (GRAPH_WEIGHT * (rank.get(file.id) ?? 0)) / best;
}

function underPrefix(path: string, prefix: string): boolean {
  const clean = prefix.replace(/^\.\/|\/+$/g, '');
  return clean === '' || clean === '.' || path === clean || path.startsWith(`${clean}/`);
}
