import type { CodeSearchHit, QuestionContext, QuestionContextOptions, SymbolMatch } from '../codeIndexTypes';
import { estimateTokens } from '../../llm/tokenEstimate';
import type { IndexContents } from '../indexContents';
import { declaredDoc } from './declaredDoc';
import { exactDefinitions } from './exactDefinitions';
import { aboutFile, INCLUDE_GUARD_LINE, PLUMBING } from './fileAbout';
import { isProsePath, isTestPath } from './fileRoles';
import { oneOfEach, overloadDoc } from './oneOfEach';
import { looksLikeCode, questionTerms, type QuestionTerms } from './questionTerms';

export const DEFAULT_QUESTION_BUDGET = 700;
const MAX_DEFINITIONS = 5;

/**
 * The index's answer to a question before any model sees it: definitions the question names exactly
 * (shown to the user as cards at once) and the best ranked files with their lines, rendered as a list
 * for the model within a token budget; its users say what the list is (a search the agent made, or what
 * the user attached with #codebase). It goes into the user's turn, after the fixed system prompt, so the
 * prompt prefix a server caches stays the same from question to question.
 */
export function questionContext(
  contents: IndexContents,
  question: string,
  ranked: CodeSearchHit[],
  options: Required<QuestionContextOptions>,
): Omit<QuestionContext, 'partial'> {
  const terms = questionTerms(question);
  const { kept, repeats } = oneOfEach(contents, exactDefinitions(contents, terms), terms.aboutConstructors);
  const definitions: SymbolMatch[] = kept
    .map((ref) => {
      const facts = contents.byId(ref.file)!;
      const symbol = facts.symbols[ref.index]!;
      const match: SymbolMatch['match'] = symbol.name === question.match(symbol.name)?.[0] ? 'exact' : 'case';
      return { ...symbol, path: facts.path, match, index: ref.index };
    })
    // A plain word defined in a test is not what the user means (a benchmark's `var form`, listed first for "`form`
    // tags" on gin); a name spelled like code is, wherever it is.
    .filter((d) => looksLikeCode(d.name) || answersInKind(d.path, terms))
    .slice(0, MAX_DEFINITIONS)
    .map(({ index, ...d }) => {
      const doc = d.doc ?? overloadDoc(contents.get(d.path)!, index) ?? declaredDoc(contents, d, d.path);
      return (doc ? { ...d, doc } : d) satisfies SymbolMatch;
    });
  const candidates = codeFirst(ranked, terms);
  const repeated = new Set(
    repeats.map((ref) => {
      const facts = contents.byId(ref.file)!;
      return `${facts.path}:${facts.symbols[ref.index]!.line}`;
    }),
  );
  const { text, listed } = render(contents, definitions, candidates, options, repeated);
  return { text, tokens: estimateTokens(text), definitions, hits: candidates.filter((hit) => listed.has(hit.path)) };
}

/** How many ranked files the list draws from: tests and docs left out, enough remain for MAX_FILES. */
export const QUESTION_CANDIDATES = 10;
const MAX_HITS = 6;

/** Whether a file is of the kind the question asks about: code, unless it names tests or docs. */
function answersInKind(path: string, terms: QuestionTerms): boolean {
  return (terms.aboutTests || !isTestPath(path)) && (terms.aboutDocs || !isProsePath(path));
}

/**
 * The ranked files a where-is list may show: only code, unless the question asks for tests or docs (all of them
 * when nothing else matched). The ranking already puts tests and docs lower, but a small model names the first
 * file that mentions the words, and a test names them as often as the code: on bench/eval's gin questions the
 * 1.5B default answered `middleware_test.go` and `tree_test.go` where the code was listed too.
 */
function codeFirst(ranked: CodeSearchHit[], terms: QuestionTerms): CodeSearchHit[] {
  const inKind = ranked.filter((hit) => answersInKind(hit.path, terms));
  return (inKind.length ? inKind : ranked).slice(0, MAX_HITS);
}

/** Tokens left for the words its users put around the list (a header, what to do with it). */
const FRAMING_TOKENS = 60;
const MAX_FILES = 4;
const COMPACT_SCORE_FLOOR = 0.5;
const MAX_FILES_WITH_DEFINITION = 3;

/**
 * The matches as a numbered list of files, best first: each file with what it is about (its module comment
 * or first doc line), then its definitions and lines that match, each as `path:line: what is there`, within
 * the budget. Numbered and path-first because a small model answers by picking an entry and copying its
 * path; a flat list of lines it echoed or mixed up (Qwen2.5-Coder 1.5B, bench/eval).
 */
function render(
  contents: IndexContents,
  definitions: SymbolMatch[],
  hits: CodeSearchHit[],
  { budgetTokens: budget, detail }: Required<QuestionContextOptions>,
  repeated: ReadonlySet<string>,
): { text: string; listed: Set<string> } {
  const perFile = detail === 'compact' ? 1 : 2;
  /** Per file, what it is about and its rendered lines, in rank order. */
  const byFile = new Map<string, { about?: string; lines: string[] }>();
  const entry = (path: string) => byFile.get(path) ?? byFile.set(path, { about: aboutFile(contents, path), lines: [] }).get(path)!;
  for (const d of definitions) {
    const file = entry(d.path);
    // The doc of the definition a file is named after is usually what the entry says the file is about: said once.
    const doc = d.doc && !saysTheSame(d.doc, file.about) ? ` — ${d.doc}` : '';
    file.lines.push(
      `   ${d.path}:${d.line} ${d.declaration ? 'declares' : 'defines'} ${d.name} (${d.kind}): ${withoutAnnotations(d.signature, contents.get(d.path)?.language)}${doc}`,
    );
  }
  // A definition shown, and the constructors and other overloads left out for it (oneOfEach.ts), are no file's lines.
  const shown = new Set([...definitions.map((d) => `${d.path}:${d.line}`), ...repeated]);
  // A small model's list leaves out files far below the best (under COMPACT_SCORE_FLOOR of its score): each costs the
  // prompt tokens of its lines on every question, and the right file is almost never among them (bench/eval: listed
  // for 47 → 47 of the 50 written questions, 223 → 222 of the 280 from history, at 0.4). 0.45 since the ranking adds
  // the best definition's coverage (termProximity.ts), which lifts the files below the best more than the best: the
  // lists keep the size they had (260 tokens on average), and list the right file for 47 and 228 (230 at 0.4).
  // 0.5 since a fifth session: 251 → 236 tokens, the right file listed for 48 and 234 → 232; a second entry under half
  // the best was where the 1.5B default went from a right first one (ripgrep's `--colors` question named `wtr.rs`).
  // At 0.55 gin's binder question loses its right file (0.55 of the best).
  const floor = detail === 'compact' ? (hits[0]?.score ?? 0) * COMPACT_SCORE_FLOOR : 0;
  for (const hit of hits) {
    if (hit.score < floor && !byFile.has(hit.path)) continue;
    const file = entry(hit.path);
    for (const symbol of hit.symbols.slice(0, perFile))
      if (!shown.has(`${hit.path}:${symbol.line}`))
        file.lines.push(`   ${hit.path}:${symbol.line}: ${withoutAnnotations(symbol.signature, contents.get(hit.path)?.language)}`);
    // A matching line that only repeats the about line or a definition's doc (its docstring) says nothing new.
    const said = [file.about ?? '', ...file.lines];
    for (const line of hit.lines
      .filter((l) => !shown.has(`${hit.path}:${l.line}`) && !PLUMBING.test(l.text) && !INCLUDE_GUARD_LINE.test(l.text) && !repeats(l.text, said))
      .slice(0, perFile))
      file.lines.push(`   ${hit.path}:${line.line}${line.within ? ` (in ${line.within})` : ''}: ${line.text}`);
  }
  // Fewer files when the question named a definition: the answer is in front, and one more file (a question that
  // names a function may ask about what it calls) is all the rest is worth; more only distracts a small model (on
  // bench/eval, asked which file defines `RouterGroup`, the 1.5B default named a third listed file that returns one).
  const definitionFiles = new Set(definitions.map((d) => d.path));
  const maxFiles = definitions.length ? Math.min(MAX_FILES_WITH_DEFINITION, definitionFiles.size + 1) : MAX_FILES;
  let text = '';
  const listed = new Set<string>();
  for (const [path, { about, lines }] of bestFirst([...byFile], hits[0]?.path, definitionFiles).slice(0, maxFiles)) {
    const block = [`${listed.size + 1}. ${path}${about ? ` — ${about}` : ''}`, ...lines].join('\n');
    const next = text ? `${text}\n${block}` : block;
    if (estimateTokens(next) > budget - FRAMING_TOKENS) break;
    text = next;
    listed.add(path);
  }
  return { text, listed };
}

/**
 * The entries in list order: the definitions the question names, then the ranked files; but the ranking's best file
 * first when it defines none of them. The ranking already counts the names a question spells, so it puts their
 * definitions first when they are what is asked for ("Where is `GsonBuilder` defined?"); when it ranks another file
 * above them, the names were said in passing. Asked "Where does Gson decide which fields to skip because of @Expose,
 * @Since/@Until versions or the transient modifier?", the ranking put `Excluder.java` first, and the list showed
 * `Expose`, `Since` and `Until` alone: three definitions filled it.
 */
function bestFirst<T>(entries: Array<[string, T]>, best: string | undefined, definitionFiles: ReadonlySet<string>): Array<[string, T]> {
  const at = entries.findIndex(([path]) => path === best);
  if (best === undefined || definitionFiles.has(best) || at <= 0) return entries;
  return [entries[at]!, ...entries.slice(0, at), ...entries.slice(at + 1)];
}

/**
 * Whether a definition's doc says no more than the entry's about line: the same words, or more only where the about
 * line was cut (`…`) or the doc goes on for a fragment (its comment's first line ends "…has been present. This"). A
 * second sentence the about line left out is not said.
 */
function saysTheSame(doc: string, about: string | undefined): boolean {
  if (about === undefined) return false;
  const [uncutDoc, uncutAbout] = [doc, about].map((text) => text.replace(/…$/, '')) as [string, string];
  if (uncutAbout.startsWith(uncutDoc)) return true;
  if (!uncutDoc.startsWith(uncutAbout)) return false;
  return about.endsWith('…') || (uncutDoc.slice(uncutAbout.length).match(/\p{L}+/gu) ?? []).length < 3;
}

/**
 * Whether a matching line only repeats what its file's entry already says (a docstring under the definition that
 * quotes it), in whole or the part of it an about line cut short (`…`) says.
 */
function repeats(line: string, said: string[]): boolean {
  const words = line.replace(/^[\s/*#"'`]+|[\s/*#"'`]+$/g, '');
  return (
    words.length >= 12 &&
    said.some((text) => {
      const uncut = text.replace(/…$/, '');
      return uncut.includes(words) || (uncut.length >= 12 && words.includes(uncut));
    })
  );
}

/** One annotation or decorator at the start of a signature: `@Override`, `@Target({ElementType.FIELD})` (one level of parentheses). */
const LEADING_ANNOTATION = /^@(?!interface\b)[\w.]+(?:\((?:[^()]|\([^()]*\))*\))?\s+/;

/** Languages whose `@` before a definition is an annotation or decorator (in CSS it is the definition: `@keyframes spin`). */
const ANNOTATED_LANGUAGES = new Set(['java', 'kotlin', 'csharp', 'typescript', 'javascript', 'python', 'scala', 'dart']);

/**
 * A signature without the annotations before it (`@Documented @Retention(RetentionPolicy.RUNTIME) public @interface
 * Since` is `public @interface Since`): they say how a tool treats the definition, not what it is, and cost a small
 * model's prompt up to 30 tokens a line.
 */
function withoutAnnotations(signature: string, language: string | undefined): string {
  if (!language || !ANNOTATED_LANGUAGES.has(language)) return signature;
  let rest = signature;
  for (let match = LEADING_ANNOTATION.exec(rest); match; match = LEADING_ANNOTATION.exec(rest)) rest = rest.slice(match[0].length);
  // A signature cut before its definition (extractTags keeps 8 lines: `@Entity() @Index(…) …`) is all annotations.
  return /\w/.test(rest) ? rest : signature;
}
