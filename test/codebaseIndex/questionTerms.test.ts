import { strict as assert } from 'node:assert';
import { questionTerms, withoutContractions } from '../../src/core/codebaseIndex/search/questionTerms';

/** Whether a question asks what happens or where a named thing is: a contract it names ranks below the code only in the first case (fileRoles.ts). */
describe('a question that names a definition asks either for it or for what happens around it', () => {
  it('asks what happens: something does what it says, in more than a few words of its own', () => {
    for (const question of [
      "Where does Gson turn an object's fields into JSON properties by reflection, using the names from @SerializedName?",
      'How do the rows of a `Table` get sorted before they are inserted?',
      '> So, where in the code does it turn fields into JSON properties with @SerializedName?',
      "I'm lost. Which file does the sorting of a `Table`'s rows before they are inserted?",
    ])
      assert.equal(questionTerms(question).asksWhatHappens, true, question);
  });

  it('asks for the named thing: a word that asks for a definition, few words, no verb something does, or another language', () => {
    for (const question of [
      'Where is the `JsonReader` class defined?',
      'Which file declares the `Payment` interface used for card refunds and chargebacks?',
      'Where does `per_match_one_line` get set on the printer?',
      "Where does Gson's `TYPE_ADAPTER_FACTORY` live?",
      "Where doesn't `Table` sort?",
      'Where does the 4xx `Table` go?',
      "Where is the `FieldNamingStrategy` that maps a field's name to a JSON property name?",
      'Wo ist die Schnittstelle `Payment`?',
    ])
      assert.equal(questionTerms(question).asksWhatHappens, false, question);
  });

  it('asks for the names themselves with few words of its own or a word that asks for a definition, whatever the verb', () => {
    const forNames = [
      'Where is `TestParseURL`?',
      'Where is LongStringsAreCutShortWithAnEllipsis?',
      'Which file declares `Payment`, used for refunds and chargebacks?',
    ];
    for (const question of forNames) assert.equal(questionTerms(question).asksForNames, true, question);
    const inPassing = [
      'add support for encoding.UnmarshalText in uri/query binding',
      "Where does Gson turn an object's fields into JSON properties by reflection, using the names from @SerializedName?",
    ];
    for (const question of inPassing) assert.equal(questionTerms(question).asksForNames, false, question);
  });
});

describe("a qualified name's last part is what it names, the parts before it where", () => {
  it('reads `A::B`, `A.b()` and `A::B::C` as the last name inside the one before it', () => {
    const terms = questionTerms('Where are `Sinatra::Namespace`, HandlerStack::resolve, `Session.send()` and `Rack::Protection::AuthenticityToken`?');
    assert.deepEqual(Object.fromEntries(terms.qualifiedBy), {
      Namespace: ['Sinatra'],
      resolve: ['HandlerStack'],
      send: ['Session'],
      AuthenticityToken: ['Protection'],
    });
    assert.deepEqual(terms.qualifiers.sort(), ['HandlerStack', 'Protection', 'Rack', 'Session', 'Sinatra']);
    assert.ok(
      ['Sinatra', 'Namespace', 'resolve', 'Rack'].every((name) => terms.identifiers.includes(name)),
      'every part is still a word of the question',
    );
  });

  it('a qualifier also named alone is no mere qualifier; a comma or a single colon separates names', () => {
    const terms = questionTerms('Where are `Session` and `Session.send` defined, and `parse,dump` and `match:fg:red`?');
    assert.deepEqual(terms.qualifiers, []);
    assert.deepEqual(Object.fromEntries(terms.qualifiedBy), { send: ['Session'] });
    assert.ok(
      ['parse', 'dump', 'match', 'fg', 'red'].every((name) => terms.identifiers.includes(name)),
      JSON.stringify(terms.identifiers),
    );
  });

  it("a file's name is no qualified name; a call, `::` or a name like an object's own property is", () => {
    const files = questionTerms('What is in `Gson.java`, __init__.py, `ring.test.c` and src/search/rankFiles.ts?');
    assert.deepEqual(Object.fromEntries(files.qualifiedBy), {});
    assert.deepEqual(files.qualifiers, []);
    assert.ok(
      ['Gson', 'ring', 'test', 'rankFiles'].every((name) => files.identifiers.includes(name)),
      JSON.stringify(files.identifiers),
    );
    const names = questionTerms('Where are `Foo.toString`, Context.JSON() and `Mutex::lock`?');
    assert.deepEqual(Object.fromEntries(names.qualifiedBy), { toString: ['Foo'], JSON: ['Context'], lock: ['Mutex'] });
  });

  it('a name qualified twice keeps both qualifiers', () => {
    const terms = questionTerms('How do `Foo.parse` and `Bar.parse` differ?');
    assert.deepEqual(Object.fromEntries(terms.qualifiedBy), { parse: ['Foo', 'Bar'] });
    assert.deepEqual(terms.qualifiers, ['Foo', 'Bar']);
  });
});

describe('a question asks about tests when it speaks of test code', () => {
  it('does for tests, specs, a test or spec file, unit tests, test helpers and testing', () => {
    for (const question of [
      'Which tests check the router?',
      'Where is the test for parseURL?',
      'Where is the parseURL test?',
      'Where are the tests that cover parseURL?',
      'Are there tests that exercise the cookie jar?',
      'Is there a flaky test?',
      'Where are the test helpers?',
      'Where is conftest?',
      'Add tests for the JSON writer',
      'Where are the unit tests for the cookie jar?',
      'Which spec file covers the redirect middleware?',
      'How is testing set up?',
    ]) {
      assert.equal(questionTerms(question).aboutTests, true, question);
    }
  });

  it('does not for the verb, an environment named test, or a spec that is no test', () => {
    for (const question of [
      'Where does the router test whether a path matches?',
      'Which function tests if the header is set?',
      'Which function tests that the token is valid?',
      'Where are YAML settings files read and only the section for the current environment (development, test, production) kept?',
      'Where is the OpenAPI spec parsed?',
    ]) {
      assert.equal(questionTerms(question).aboutTests, false, question);
    }
  });
});

describe('a question asks for a header or a declaration when it says so, not for an HTTP header', () => {
  it('does for a header file, a header by its extension, a declaration and a prototype', () => {
    for (const question of [
      'Which header file declares the IDNA functions?',
      'What does `idna.h` say about Punycode?',
      'Where is tree.hpp included from?',
      'Which .h file has the loop struct?',
      'Where is `uv_run` declared?',
      'Where are the declarations of the socket functions?',
      'Where is the prototype of uv_spawn?',
    ]) {
      assert.equal(questionTerms(question).aboutDeclarations, true, question);
    }
  });

  it('does not for HTTP headers, an abbreviation, a web page or a word that only starts the same', () => {
    for (const question of [
      'Where are the proxy headers read?',
      'Where is the Content-Type header checked?',
      'Where is the page rendered, e.g. how is index.html written?',
      'Where are undeclared variables reported?',
      'Where are the timers run?',
    ]) {
      assert.equal(questionTerms(question).aboutDeclarations, false, question);
    }
  });
});

describe("a contraction's or possessive's letters are no words of their own", () => {
  it('drops them, with either apostrophe, and keeps the word before them', () => {
    assert.equal(withoutContractions("When curl isn't used, where are PHP's streams unzipped?"), 'When curl is used, where are PHP streams unzipped?');
    assert.equal(withoutContractions('Gson’s fields, an object’s members'), 'Gson fields, an object members');
    assert.equal(withoutContractions("can't won't doesn't we're they've it'll I'd I'm"), 'can will does we they it I I');
    assert.equal(withoutContractions('isnʼt it‘s'), 'is it');
    assert.deepEqual(questionTerms("WHY CAN'T THE ROUTER MATCH?").identifiers, [], 'CAN stays as written, no name');
  });

  it("drops them after code too: a backquoted name's, a call's, a name with digits'", () => {
    assert.equal(withoutContractions("`parseArgs`'s result, parse()'s result, base64's table"), '`parseArgs` result, parse() result, base64 table');
  });

  it('a question reads the same without them: "Why doesn\'t Gson …" has Gson as its subject, as "Why does Gson …"', () => {
    assert.deepEqual(questionTerms("Why doesn't Gson serialize nulls?"), questionTerms('Why does Gson serialize nulls?'));
  });

  it('leaves quoted words, backquoted code and apostrophes inside a word as written', () => {
    for (const text of [
      "which extensions count as 'rust' or 'py'?",
      "the `Object's` field",
      "l'état",
      "the 's' flag",
      "the users' names",
      "fenced:\n```\nit's = 1\n```",
    ]) {
      assert.equal(withoutContractions(text), text);
    }
  });
});
