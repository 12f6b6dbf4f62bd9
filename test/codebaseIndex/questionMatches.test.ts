import { strict as assert } from 'node:assert';
import { AgentFixture } from '../agent/agentHarness';
import { IndexFixture } from './indexHarness';

/** A router, its test and its guide all talk about looking a route up in the tree; only the router answers "where". */
const ROUTER = {
  'src/router/routeTree.ts': [
    '/** The route tree: paths with :params and *wildcards. */',
    'export class RouteTree {',
    '  /** Looks a request path up in the route tree and extracts its params. */',
    '  lookupRoute(path: string): string | undefined {',
    '    return this.find(path); // route tree lookup',
    '  }',
    '  /** Adds a route to the tree. */',
    '  addRoute(path: string): void {}',
    '  find(path: string): string | undefined {',
    '    return path; // route lookup in the tree',
    '  }',
    '}',
    '/** Splits a route path into its segments for the tree. */',
    'export function routeSegments(path: string): string[] {',
    "  return path.split('/'); // route tree segments",
    '}',
  ].join('\n'),
  'src/router/routeTree.test.ts': [
    "import { RouteTree } from './routeTree';",
    '/** Looks routes up in the route tree and checks the params the lookup extracts. */',
    'export function checkRouteLookups(tree: RouteTree): void {',
    "  tree.lookupRoute('/users/:id'); // route tree lookup of a path with params",
    '}',
    'const form = { route: "tree" };',
  ].join('\n'),
  'docs/routing.md': '# Routing\n\nA request path is looked up in the route tree, and its params are extracted from the route.\n',
  'src/forms/readForm.ts': '/** Reads submitted form values. */\nexport function readFormValues(body: string): Record<string, string> {\n  return {};\n}\n',
};

/** Three more code files that look a RouteTree up, as well matched as the tree itself: enough to fill any list. */
const MORE_ROUTE_LOOKUPS = Object.fromEntries(
  ['cache', 'metrics', 'trace'].map((name) => [
    `src/router/${name}.ts`,
    `/** Looks a route up in the route tree for ${name}. */\nexport function ${name}RouteTreeLookup(path: string): string {\n  return path; // RouteTree lookup: a route looked up in the route tree\n}\n`,
  ]),
);

/** A doc line longer than an entry's about line, which is cut at 120 characters. */
const SINCE_DOC =
  'The version a field has been present since, compared with the version the serializer was configured with to decide whether the field is written.';

/** Three decorators, each in its own file, and the code that reads them to skip fields (gson's `Expose`, `Since`, `Until` and `Excluder`). */
const DECORATORS_AND_THEIR_READER = {
  'src/decorators/expose.ts': '/** Marks a field for JSON output. */\nexport function Expose(): PropertyDecorator {\n  return () => undefined;\n}\n',
  'src/decorators/since.ts':
    '/** The version a field has been present since. */\nexport function Since(version: number): PropertyDecorator {\n  return () => undefined;\n}\n',
  'src/decorators/until.ts':
    '/** The version a field is present until. */\nexport function Until(version: number): PropertyDecorator {\n  return () => undefined;\n}\n',
  'src/internal/fieldExcluder.ts': [
    "import { Expose } from '../decorators/expose';",
    "import { Since } from '../decorators/since';",
    "import { Until } from '../decorators/until';",
    '/** Decides which fields to skip: not exposed, out of the Since/Until versions, or transient. */',
    'export class FieldExcluder {',
    '  /** Whether a field is skipped because of its Expose, Since or Until decorator or the transient modifier. */',
    '  skipField(field: { transient: boolean; version: number }): boolean {',
    '    // skip transient fields, and fields outside the versions Since and Until allow',
    '    return field.transient || field.version < 0;',
    '  }',
    '}',
  ].join('\n'),
};

const listedFiles = (text: string) => [...text.matchAll(/^\d+\. (\S+)/gm)].map((m) => m[1]);
const linesUnder = (text: string, path: string) => text.split('\n').filter((line) => line.startsWith(`   ${path}:`)).length;

describe("a where-is question's matches: code, not its tests or docs; fewer lines for small models", () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(ROUTER)));
  afterEach(() => fx.close());

  it('lists code files only, though a test and a guide match the words as well', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is a request path looked up in the route tree and its params extracted?');
    assert.equal(listedFiles(context.text)[0], 'src/router/routeTree.ts');
    assert.deepEqual(
      listedFiles(context.text).filter((path) => /test|docs\//.test(path!)),
      [],
      context.text,
    );
    assert.deepEqual(
      context.hits.map((hit) => hit.path).filter((path) => /test|docs\//.test(path)),
      [],
      'the files the turn records as seen are the listed kind too',
    );
  });

  it('lists the test when the question asks about tests, and the guide when it asks about docs', async () => {
    const index = await fx.open();
    await index.update();
    const tests = await index.questionContext('Which test checks the route tree lookup and its params?');
    assert.ok(listedFiles(tests.text).includes('src/router/routeTree.test.ts'), tests.text);
    const docs = await index.questionContext('Where do the docs explain how a path is looked up in the route tree?');
    assert.ok(listedFiles(docs.text).includes('docs/routing.md'), docs.text);
  });

  it('a plain word defined only in a test is no card; a name spelled like code is found wherever it is', async () => {
    const index = await fx.open();
    await index.update();
    const plain = await index.questionContext('Where are `form` values read?');
    assert.deepEqual(
      plain.definitions.map((d) => d.name),
      [],
      'the test file’s `const form` is not what the user means',
    );
    const named = await index.questionContext('Where is checkRouteLookups defined?');
    assert.deepEqual(
      named.definitions.map((d) => `${d.path}:${d.line}`),
      ['src/router/routeTree.test.ts:3'],
    );
  });

  it('the subject of "where does X …" is no name to look up when X is the project; any other name is', async () => {
    // Most files sit in a folder named after the project, whose main class has its name, as in gson's `Gson`.
    const project = new IndexFixture({
      'router/src/Router.ts': '/** Configures and starts a router. */\nexport class Router {\n  start(): void {}\n}\n',
      'router/src/routeTree.ts': ROUTER['src/router/routeTree.ts'],
      'router/src/Engine.ts': '/** Runs the handlers of a matched route. */\nexport class Engine {\n  run(): void {}\n}\n',
      'docs/guide.md': '# Guide\n\nStart the Router, then add routes.\n',
    });
    try {
      const index = await project.open();
      await index.update();
      const subject = await index.questionContext('Where does Router look a request path up in the route tree and extract its params?');
      assert.equal(listedFiles(subject.text)[0], 'router/src/routeTree.ts', subject.text);
      assert.deepEqual(
        subject.definitions.map((d) => d.name),
        [],
        'no card for the project’s name',
      );
      const negated = await index.questionContext("Why doesn't Router look a request path up in the route tree?");
      assert.deepEqual(
        negated.definitions.map((d) => d.name),
        [],
        "nor when the auxiliary is contracted: doesn't is does",
      );
      const named = await index.questionContext('Where is Router defined?');
      assert.deepEqual(
        named.definitions.map((d) => `${d.path}:${d.line}`),
        ['router/src/Router.ts:2'],
      );
      const other = await index.questionContext('How can Engine be configured?');
      assert.deepEqual(
        other.definitions.map((d) => `${d.path}:${d.line}`),
        ['router/src/Engine.ts:2'],
        'a subject that is not the project’s name is looked up',
      );
    } finally {
      project.close();
    }
  });

  it('a question that names a definition lists its file and one more, no further distractions', async () => {
    fx.folder.write(MORE_ROUTE_LOOKUPS); // so that the list could hold three files or four
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Which file defines the `RouteTree` class?');
    assert.equal(listedFiles(context.text)[0], 'src/router/routeTree.ts');
    assert.equal(listedFiles(context.text).length, 2, context.text);
    const notListed = context.hits.map((hit) => hit.path).filter((path) => !listedFiles(context.text).includes(path));
    assert.deepEqual(notListed, [], 'the files the turn records as seen by the model are the listed ones');
  });

  it('names said in passing do not push out the file the ranking puts first; named and asked for, their definition leads', async () => {
    fx.folder.write(DECORATORS_AND_THEIR_READER);
    const index = await fx.open();
    await index.update();
    const inPassing = await index.questionContext(
      'Where does it decide which fields to skip because of @Expose, @Since/@Until versions or the transient modifier?',
    );
    assert.deepEqual(
      inPassing.definitions.map((d) => d.name),
      ['Expose', 'Since', 'Until'],
      'each name the question spells is still a card',
    );
    assert.equal(listedFiles(inPassing.text)[0], 'src/internal/fieldExcluder.ts', inPassing.text);
    assert.deepEqual(listedFiles(inPassing.text).slice(1), ['src/decorators/expose.ts', 'src/decorators/since.ts'], 'the list keeps its three files');

    const askedFor = await index.questionContext('Where is the `Since` decorator defined?');
    assert.equal(listedFiles(askedFor.text)[0], 'src/decorators/since.ts', askedFor.text);
  });

  it('a Java interface alone ranks below the class that does what the question asks, unless the question names it', async () => {
    fx.folder.write({
      'src/main/java/demo/InstanceCreator.java': [
        'package demo;',
        '',
        '/**',
        ' * Creates an instance of a class that has no no-args constructor: implement it to create instances of a type',
        ' * whose constructor needs arguments, for a class with no no-args constructor.',
        ' */',
        'public interface InstanceCreator<T> {',
        '  /** Creates an instance of the class, which has no no-args constructor. */',
        '  T createInstance(Class<T> type);',
        '}',
      ].join('\n'),
      'src/main/java/demo/ObjectFactory.java': [
        'package demo;',
        '',
        '/** Makes objects of any class. */',
        'public final class ObjectFactory {',
        '  /** Creates an instance without calling a constructor, when the class has no no-args constructor. */',
        '  public static <T> T newInstance(Class<T> type) {',
        '    return allocate(type); // no no-args constructor: allocate the instance',
        '  }',
        '}',
      ].join('\n'),
    });
    const index = await fx.open();
    await index.update();
    const doing = await index.questionContext('Where does it create an instance of a class that has no no-args constructor?');
    assert.equal(listedFiles(doing.text)[0], 'src/main/java/demo/ObjectFactory.java', doing.text);
    const named = await index.questionContext('Where is the `InstanceCreator` interface defined?');
    assert.equal(listedFiles(named.text)[0], 'src/main/java/demo/InstanceCreator.java', named.text);
  });

  it('a Java annotation the question names in passing, asking what happens, is listed below the code that does it', async () => {
    fx.folder.write({
      'src/main/java/demo/annotations/SerializedName.java': [
        'package demo.annotations;',
        '',
        '/** An annotation that indicates this member should be serialized to JSON with the provided name. */',
        '@Retention(RetentionPolicy.RUNTIME)',
        '@Target({ElementType.FIELD, ElementType.METHOD})',
        'public @interface SerializedName {',
        '  /** The desired name of the field when it is serialized or deserialized. */',
        '  String value();',
        '}',
      ].join('\n'),
      'src/main/java/demo/bind/ReflectiveAdapter.java': [
        'package demo.bind;',
        '',
        '/** Type adapter that reflects over the fields of a class. */',
        'public final class ReflectiveAdapter {',
        '  private BoundField createBoundField(Field field, String serializedName) {',
        '    return new BoundField(serializedName, field);',
        '  }',
        '',
        '  /** The JSON property names of a field: its @SerializedName, or its own name. */',
        '  private List<String> fieldNames(Field field) {',
        '    SerializedName annotation = field.getAnnotation(SerializedName.class);',
        '    return annotation == null ? List.of(field.getName()) : List.of(annotation.value());',
        '  }',
        '}',
      ].join('\n'),
    });
    const index = await fx.open();
    await index.update();
    const inPassing = await index.questionContext(
      "Where does it turn an object's fields into JSON properties by reflection, using the names from @SerializedName?",
      { detail: 'compact' },
    );
    assert.deepEqual(
      listedFiles(inPassing.text),
      ['src/main/java/demo/bind/ReflectiveAdapter.java', 'src/main/java/demo/annotations/SerializedName.java'],
      inPassing.text,
    );
    const askedFor = await index.questionContext('Where is the `SerializedName` annotation declared?', { detail: 'compact' });
    assert.equal(listedFiles(askedFor.text)[0], 'src/main/java/demo/annotations/SerializedName.java', askedFor.text);
  });

  it('"one" and "per" do not make a name the question\'s: the JSON printer, not `per_match_one_line`', async () => {
    fx.folder.write({
      'crates/printer/src/standard.rs': [
        '/// The standard printer, which implements grep-like formatting.',
        'pub struct Standard {}',
        'impl Standard {',
        '    pub fn per_match_one_line(&mut self, yes: bool) {}',
        '    fn write_line(&mut self) {}',
        '}',
      ].join('\n'),
      'crates/printer/src/json.rs': [
        '/// The JSON printer, which emits results in a JSON lines format.',
        'pub struct Json {}',
        'impl Json {',
        '    fn write_message(&mut self) {}',
        '}',
      ].join('\n'),
      // As in any codebase, "one" and "per" are everywhere: rare words in a handful of files would weigh as names do.
      ...Object.fromEntries(
        ['walk', 'glob', 'search', 'count', 'sort', 'cache'].map((name) => [
          `crates/core/src/${name}.rs`,
          `/// Runs one ${name} per thread, one at a time per worker.\npub fn ${name}_one(per_thread: usize) {}\n`,
        ]),
      ),
    });
    const index = await fx.open();
    await index.update();
    const { text } = await index.questionContext('Where is the output for --json mode written, one JSON message per match?');
    assert.equal(listedFiles(text)[0], 'crates/printer/src/json.rs', text);
  });

  it("a definition's line says its signature without annotations, and its doc only when the entry's about line does not", async () => {
    fx.folder.write({
      'src/main/java/demo/Since.java': [
        'package demo;',
        '',
        'import java.lang.annotation.*;',
        '',
        '/**',
        ` * ${SINCE_DOC}`,
        ' */',
        '@Documented',
        '@Retention(RetentionPolicy.RUNTIME)',
        '@Target({ElementType.FIELD, ElementType.TYPE})',
        '@interface Since {',
        '  double value();',
        '}',
      ].join('\n'),
    });
    const index = await fx.open();
    await index.update();
    const { text } = await index.questionContext('Which file defines `Since`?');
    const entry = text.split(/\n(?=\d+\. )/)[0]!;
    assert.match(entry, /^1\. src\/main\/java\/demo\/Since\.java — The version a field has been present since, .*…$/m, text);
    assert.match(entry, /^ {3}src\/main\/java\/demo\/Since\.java:\d+ defines Since \(interface\): @interface Since$/m, text);
    assert.equal(entry.split('has been present since').length - 1, 1, `the doc is said once, though the about line is cut shorter:\n${entry}`);
  });

  it('lists no line that is a bare name (an item of a multi-line import), though it holds a word of the question', async () => {
    const fixture = new IndexFixture({
      'src/tls.py':
        '"""Certificate checks for HTTPS connections."""\nfrom typing import (\n    TYPE_CHECKING,\n    Any,\n)\ndef verify_certificate(conn: Any) -> None:\n    """Turns certificate checking on for a connection."""\n    pass\n',
    });
    try {
      const index = await fixture.open();
      await index.update();
      const context = await index.questionContext('Where is certificate checking turned on for HTTPS connections?', { detail: 'full' });
      assert.match(context.text, /^1\. src\/tls\.py/m);
      assert.match(context.text, /src\/tls\.py:6: def verify_certificate/);
      assert.doesNotMatch(context.text, /TYPE_CHECKING/);
    } finally {
      await fixture.close();
    }
  });

  it('a quoted command or flag is words, not names: no definition card for its parts; a quoted name gets one', async () => {
    const fixture = new IndexFixture({
      'src/state.ts': 'export function state(): string {\n  return "";\n}\nexport function migrate(): void {}\n',
      'src/commands/stateMigrate.ts':
        '/** The state migrate command: moves state to another backend, asking first unless -force-copy is given. */\nexport function runStateMigrate(forceCopy: boolean): void {}\n',
    });
    try {
      const index = await fixture.open();
      await index.update();
      const command = await index.questionContext('Where does `state migrate` skip its prompt when `-force-copy` is given?');
      assert.deepEqual(
        command.definitions.map((d) => d.name),
        [],
      );
      assert.match(command.text, /^1\. src\/commands\/stateMigrate\.ts/m);
      const name = await index.questionContext('Where is `migrate` defined?');
      assert.deepEqual(
        name.definitions.map((d) => `${d.name} ${d.path}`),
        ['migrate src/state.ts'],
      );
    } finally {
      await fixture.close();
    }
  });

  it('says what a file is about from its opening comment, else from the definition it is named after, never from a comment on a constant', async () => {
    const about = new IndexFixture({
      'src/routeGroup.ts': [
        "import { letters } from './letters';",
        '/** Matches English letters of a method name. */',
        'const methodName = letters;',
        '',
        '/** RouteGroup configures the routes under one prefix. */',
        'export class RouteGroup {',
        '  prefix = methodName;',
        '}',
      ].join('\n'),
      'src/letters.ts': '// Letters that route group names may use.\n\nexport const letters = /^[A-Z]+$/;\n',
    });
    try {
      const index = await about.open();
      await index.update();
      const context = await index.questionContext('Where are the routes under one prefix of a route group configured?');
      const entries = context.text.split('\n').filter((line) => /^\d+\. /.test(line));
      assert.ok(entries.includes('1. src/routeGroup.ts — RouteGroup configures the routes under one prefix.'), context.text);
      assert.ok(entries.includes('2. src/letters.ts — Letters that route group names may use.'), context.text);
    } finally {
      await about.close();
    }
  });

  it('compact detail shows one definition and one line per file, full up to two of each; both four files at most', async () => {
    fx.folder.write(MORE_ROUTE_LOOKUPS); // so that both lists are full
    const index = await fx.open();
    await index.update();
    const question = 'Where is a route looked up in the route tree?';
    const full = await index.questionContext(question);
    const compact = await index.questionContext(question, { detail: 'compact' });
    assert.equal(listedFiles(compact.text)[0], 'src/router/routeTree.ts');
    assert.ok(linesUnder(full.text, 'src/router/routeTree.ts') > 2, full.text);
    assert.equal(linesUnder(compact.text, 'src/router/routeTree.ts'), 2, compact.text);
    assert.equal(listedFiles(full.text).length, 4, full.text);
    // The fourth file stays: "Which function returns the most common words?" found `topWords` 4th (bench/eval's example workspace).
    assert.equal(listedFiles(compact.text).length, 4, compact.text);
    assert.ok(compact.tokens < full.tokens);
  });
});

/** One file is all about the retry backoff; two others only say "delay" in passing. */
const BACKOFF = {
  'src/net/retryBackoff.ts': [
    '/** The retry backoff: how long to wait before the next attempt. */',
    'export function retryBackoffDelay(attempt: number): number {',
    '  return Math.min(30_000, 500 * 2 ** attempt); // backoff delay doubles each retry',
    '}',
  ].join('\n'),
  'src/ui/spinner.ts': '/** A spinner for the status bar. */\nexport function spin(frames: string[]): string {\n  return frames[0]!; // no delay\n}\n',
  'src/ui/toast.ts': '/** A message shown for a moment. */\nexport function toast(text: string, delayMs = 3000): string {\n  return text;\n}\n',
};

describe("a small model's list leaves out files far below the best", () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(BACKOFF)));
  afterEach(() => fx.close());

  it('compact lists only the files within reach of the best; full lists the weak matches too', async () => {
    const index = await fx.open();
    await index.update();
    const question = 'Where is the retry backoff delay computed?';
    const ranked = await index.searchCode(question, { withLines: false });
    assert.equal(ranked[0]!.path, 'src/net/retryBackoff.ts');
    assert.ok(ranked.length >= 2 && ranked.slice(1).every((hit) => hit.score < 0.4 * ranked[0]!.score), JSON.stringify(ranked));
    const full = await index.questionContext(question);
    const compact = await index.questionContext(question, { detail: 'compact' });
    assert.ok(listedFiles(full.text).length >= 2, full.text);
    assert.deepEqual(listedFiles(compact.text), ['src/net/retryBackoff.ts'], compact.text);
  });
});

describe("a small model's first request carries the compact matches (scripted server)", () => {
  let agent: AgentFixture | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  const searchResult = (fixture: AgentFixture) => String(fixture.server.requests[0]!.body!.messages!.find((m) => m.role === 'tool')!.content);

  it('with the compact tool set one line under each definition; with the full set more', async () => {
    const question = 'Where is a route looked up in the route tree?';
    agent = await new AgentFixture(ROUTER, [{ text: 'In src/router/routeTree.ts:4.' }]).start();
    await agent.ask(question, { useCodeIndex: true, adapter: { toolSet: 'compact' } });
    const compact = searchResult(agent);
    await agent.close();
    agent = await new AgentFixture(ROUTER, [{ text: 'In src/router/routeTree.ts:4.' }]).start();
    await agent.ask(question, { useCodeIndex: true, adapter: { toolSet: 'full' } });
    const full = searchResult(agent);
    assert.equal(linesUnder(compact, 'src/router/routeTree.ts'), 2, compact);
    assert.ok(linesUnder(full, 'src/router/routeTree.ts') > 2, full);
  });
});
