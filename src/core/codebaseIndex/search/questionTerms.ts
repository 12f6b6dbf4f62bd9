import { splitIdentifier, STOP_WORDS } from './identifierWords';

export interface QuestionTerms {
  /** Words spelled like code (`getFileSummaries`, `MAX_SIZE`, `parse()`, `` `thing` ``): looked up as definitions by name. */
  identifiers: string[];
  /**
   * A qualified name's last part and the parts before it, each time it is named (`Namespace` → `Sinatra` for
   * `Sinatra::Namespace`, `parse` → `Foo`, `Bar` for `Foo.parse` and `Bar.parse`): the definitions asked for are inside them.
   */
  qualifiedBy: ReadonlyMap<string, readonly string[]>;
  /** Identifiers said only to qualify another (`Sinatra` above, a Ruby module every file of the gem reopens). */
  qualifiers: string[];
  /** Capitalised words after the first word (`Where is Engine defined?`): definitions only if one has that exact name. */
  capitalised: string[];
  /**
   * Capitalised words that are a sentence's subject ("Where does Gson decide …"): often the project itself, so they
   * are looked up as names only when they are not its name (see rankFiles.ts).
   */
  subjects: string[];
  /** Whether the question is about tests, which are otherwise ranked below the code they test. */
  aboutTests: boolean;
  /** Whether it asks about constructors, which are otherwise left out where their class is found (oneOfEach.ts). */
  aboutConstructors: boolean;
  /** Whether it asks for documentation, which is otherwise ranked below code. */
  aboutDocs: boolean;
  /** Whether it asks for a header or a declaration, which otherwise points at the source that has the bodies. */
  aboutDeclarations: boolean;
  /** Whether it asks for typings or stubs (`.d.ts`, `.pyi`), which otherwise rank below the code as contracts do. */
  aboutTypings: boolean;
  /**
   * Whether it asks what happens ("Where does Gson turn an object's fields into JSON properties …, using the names
   * from @SerializedName?") rather than where a named thing is ("Where is `JsonReader` defined?", "Where is the
   * `FieldNamingStrategy` that maps a field's name to JSON?", "Where does `Expose` live?"): a verb that something
   * does, more than a few words of its own, and none that ask for a definition.
   */
  asksWhatHappens: boolean;
  /**
   * Whether it asks for the named things themselves: few words of its own besides the names ("Where is `TestParseURL`?"),
   * or a word that asks for a definition. A question that asks what happens never does.
   */
  asksForNames: boolean;
}

/**
 * Words that ask for a definition itself, not for the code that does something with it. Not "class" or "type": "an
 * instance of a class" describes what happens; a short question ("Where does the `Since` class live?") is one by its
 * length. Not "implements": "Which class implements `InstanceCreator`?" asks for the code that does.
 */
const ASKS_FOR_DEFINITION = /\b(defin(?:e|es|ed|ing|ition|itions)|declar\w*|interfaces?|annotations?)\b/i;
/** A question with more words than this besides the names and stop words describes what happens. */
const FEW_WORDS = 3;

/** The last part of a dotted name that makes it a file's name. */
const FILE_EXTENSION =
  /^(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|scala|cs|fs|rb|rake|php|c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm|swift|dart|lua|sh|bash|zsh|ps1|psm1|css|scss|sass|less|html?|vue|svelte|md|mdx|rst|txt|json|ya?ml|toml|ini|cfg|xml|sql|proto|gradle|lock)$/;
/** A quoted span that is a command or a flag, not a name: it has a space, or starts with a dash. */
const QUOTED_COMMAND = /\s|^-/;
const TOKEN = /`([^`\n]{1,80})`|([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)(\(\))?/g;
/**
 * "Where does Gson decide …": a capitalised word after these is the sentence's subject, often the project itself
 * rather than a definition the question asks for (gson's class `Gson` is not where fields are skipped).
 */
const AUXILIARY = new Set(['does', 'do', 'did', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must']);
const AUXILIARIES = [...AUXILIARY].join('|');
/**
 * Something does what the question asks: "Where does Gson turn …", "So, where exactly does it …", "How in the code do
 * rows get …", "Does Gson use …?". A question word and an auxiliary at most three words apart, or an auxiliary
 * opening a sentence. A passive question ("Where are the refunds sent …") is left out: it reads like one that
 * describes the thing it asks for ("Where is the `FieldNamingStrategy` that maps …"), and then a contract keeps the
 * rank it had before questions were told apart.
 */
const DOES_SOMETHING = new RegExp(
  `\\b(?:where|how|what|when|why|which)\\b(?:\\s+[\\w'’]+){0,3}?\\s+(?:${AUXILIARIES})\\b|(?:^|[.?!:]\\s*)[\\s"'“>]*(?:${AUXILIARIES})\\s`,
  'i',
);

/**
 * Reads the names out of a question the way Aider splits a message on non-word characters, but
 * keeping apart what is spelled like code (and so names a definition) from plain words.
 */
export function questionTerms(asked: string): QuestionTerms {
  // "Why doesn't Gson …" reads as "Why does Gson …" (Gson is the subject), for the cards and the ranking alike.
  const question = withoutContractions(asked);
  const names = new CodeNames();
  const capitalised = new Set<string>();
  const subjects = new Set<string>();
  let first = true;
  let previous = '';
  for (const match of question.matchAll(TOKEN)) {
    const quoted = match[1];
    const word = match[2];
    if (quoted) {
      // A quoted name (`RouterGroup`, `Session.send()`) is looked up; a quoted command or flag (`state migrate`,
      // `-force-copy`) is words, not names: its parts as names put every file that defines a `state` first.
      if (!QUOTED_COMMAND.test(quoted)) {
        // `Sinatra::Namespace`, `Session.send()`: a qualified name; other punctuation (`a, b`) separates names.
        for (const name of quoted.split(/[^\w$.:]+|(?<!:):(?!:)/)) names.add(name, quoted.includes('('));
      }
    } else if (word) {
      const parts = word.split(/\.|::/);
      const codeLike = parts.length > 1 || match[3] !== undefined || looksLikeCode(word);
      if (codeLike) names.add(word, match[3] !== undefined);
      else
        for (const part of parts)
          if (!first && /^[A-Z][a-z0-9]/.test(part) && !STOP_WORDS.has(part.toLowerCase())) (AUXILIARY.has(previous) ? subjects : capitalised).add(part);
    }
    first = false;
    previous = quoted ? '' : (word ?? '').toLowerCase();
  }
  const identifiers = [...names.identifiers];
  const asksForNames = ASKS_FOR_DEFINITION.test(question) || ownWords(question, [...identifiers, ...capitalised, ...subjects]) <= FEW_WORDS;
  return {
    identifiers,
    qualifiedBy: names.qualifiedBy,
    qualifiers: names.qualifiers(),
    capitalised: [...capitalised],
    subjects: [...subjects].filter((word) => !capitalised.has(word)),
    aboutTests: asksAboutTests(question),
    aboutConstructors: /\b(constructors?|ctors?|initiali[sz]ers?)\b/i.test(question),
    aboutDocs: /\b(docs?|documentation|documented|readme|guide|tutorial|changelog|markdown)\b/i.test(question),
    // "header file" or a header's extension, not "header": an HTTP header is no C header. "Declarations" also matches a
    // question about a parser's; that only keeps a header from lending to its source, where the header still ranks.
    aboutDeclarations: /\bheader files?\b|\.(?:h|hh|hpp|hxx)\b|\bdeclar(?:e|es|ed|ing|ations?)\b|\bprototypes?\b/i.test(question),
    // Not "declares": fastify's "a plugin … rejected because it declares that it needs another version" asks for code.
    aboutTypings: /\btypings?\b|\btype (?:definitions?|declarations?)\b|\.d\.[cm]?ts\b|\.pyi\b|\bstubs?\b/i.test(question),
    asksWhatHappens: DOES_SOMETHING.test(question) && !asksForNames,
    asksForNames,
  };
}

/**
 * Names spelled like code, in their parts: every part is a word to look up; of a qualified name (`HandlerStack::resolve`,
 * `Session.send()`) the last part is what it names and the one before it where, and the parts before the last only
 * qualify unless they are named alone too.
 */
class CodeNames {
  readonly identifiers = new Set<string>();
  readonly qualifiedBy = new Map<string, string[]>();
  private readonly qualifying = new Set<string>();
  private readonly standalone = new Set<string>();

  add(name: string, called: boolean): void {
    const raw = name.split(/\.|::/);
    // `Gson.java`, `__init__.py`, `ring.test.c`: a file's name, not a name inside another (`Context.JSON()` is a call).
    const fileName = raw.length > 1 && !called && !name.includes('::') && FILE_EXTENSION.test(raw.at(-1)!);
    const named = raw.filter((part) => part.length > 1);
    for (const part of named) this.identifiers.add(part);
    if (fileName || named.length < 2) {
      for (const part of named) this.standalone.add(part);
      return;
    }
    const [qualifier, last] = named.slice(-2) as [string, string];
    this.standalone.add(last);
    const qualifiers = this.qualifiedBy.get(last) ?? [];
    if (!qualifiers.includes(qualifier)) this.qualifiedBy.set(last, [...qualifiers, qualifier]);
    for (const part of named.slice(0, -1)) this.qualifying.add(part);
  }

  qualifiers(): string[] {
    return [...this.qualifying].filter((name) => !this.standalone.has(name));
  }
}

/**
 * How many different words a question has besides the names it spells (in their parts: `per_match_one_line` is
 * four), the stop words ("Where is the … of", "doesn't" as "does") and single letters, in any script.
 */
function ownWords(question: string, names: readonly string[]): number {
  const spelled = new Set(names.flatMap((name) => [name.toLowerCase(), ...splitIdentifier(name)]));
  const words = question.match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];
  const own = words.map((word) => word.toLowerCase()).filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !spelled.has(word));
  return new Set(own).size;
}

/**
 * Code in a question (a fenced block, a backquoted span), or a contraction's or possessive's letters after an
 * apostrophe: after a word, a name, a digit or a closing bracket or backquote (`parse()`'s, base64's).
 */
const CODE_OR_CONTRACTION =
  /(```[\s\S]*?(?:```|$)|`[^`\n]*`)|\b(can)['’ʼ‘]t\b|\b(w)on['’ʼ‘]t\b|(?<=\p{L})n['’ʼ‘]t\b|(?<=[\p{L}\p{N}_)\]`])['’ʼ‘](?:s|re|ll|ve|d|m)\b/giu;

/**
 * The question without the letters of its contractions and possessives: "doesn't" → "does", "can't" → "can", "an
 * object's fields" → "an object fields", "we're" → "we". Split at the apostrophe, they were words of their own, `t` and
 * `s`, which every loop variable and receiver in the code matches (the question's own words then ranked less, and
 * each of them was looked for in every word holding a `t`). Code, backquoted or fenced, is left as written.
 */
export function withoutContractions(question: string): string {
  return question.replace(CODE_OR_CONTRACTION, (_whole, code?: string, can?: string, w?: string) => code ?? can ?? (w ? `${w}ill` : ''));
}

/** camelCase, PascalCase with two humps, snake_case, SCREAMING_CASE, or letters with digits. */
export function looksLikeCode(word: string): boolean {
  return (
    /[a-z][A-Z]/.test(word) ||
    /[A-Za-z0-9]_[A-Za-z0-9]/.test(word) ||
    /^_+[a-z]/.test(word) ||
    /^[A-Z]{2,}[a-z]/.test(word) ||
    /[A-Za-z]\d|\d[A-Za-z]/.test(word) ||
    /^\$/.test(word)
  );
}

/**
 * Test code spoken of as such: "tests", "the test for parseURL", "the parseURL test?", "a spec file", "unit tests",
 * "test helpers", "testing", "conftest", a test runner's name. Not "test" as a verb ("where does the router test
 * whether a path matches", "which function tests if …") or a name among others (sinatra's "the current environment
 * (development, test, production)"), nor a spec named for what it specifies ("the OpenAPI spec"): those questions ask
 * for code, and with aboutTests set tests would rank as code and lend it nothing (rankFiles.ts, lendToNamesakeCode).
 */
const TEST_CODE = new RegExp(
  [
    String.raw`\b(?:tests|specs|testing|testcases?|fixtures?|conftest|pytest|rspec|jest|vitest|spec files?)\b`,
    String.raw`\b(?:unit|integration|e2e|end-to-end|regression|snapshot|flaky|failing) tests?\b`,
    String.raw`\btest (?:suites?|files?|cases?|helpers?|utils?|utilities|fixtures?|data|coverage|runner|harness|setup)\b`,
    String.raw`\b(?:a|an|the|which|what|any|each|every|this|that) (?:test|spec)\b`,
    // "the parseURL test?", "the redirect spec for …": a test named by what it tests, then the question goes on.
    String.raw`\b(?:a|an|the|which|what|any|this) [\w.$\`'-]+ (?:test|spec)s?\b(?=\s*(?:[?.!,;:]|$| (?:for|of|in|on|that|which|fails?|pass(?:es)?|covers?|checks?)\b))`,
  ].join('|'),
  'i',
);
/** "tests whether", "tests if", "tests that" as the verb: not after a word that makes "tests" a noun ("the tests that …"). */
const TESTS_AS_VERB =
  /(?<!\b(?:the|these|those|which|what|any|some|all|no|are|there|unit|integration|e2e|end-to-end|regression|snapshot|flaky|new|failing) )\btests (?:whether|if|that)\b/gi;

export function asksAboutTests(question: string): boolean {
  return TEST_CODE.test(question.replace(TESTS_AS_VERB, ''));
}
