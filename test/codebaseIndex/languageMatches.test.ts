import { strict as assert } from 'node:assert';
import { IndexFixture } from './indexHarness';

// Where-is questions in languages whose conventions the index reads: C's headers and include guards, Ruby's reopened
// modules and magic comments, and names qualified the way each language spells them.

const listedFiles = (text: string) => [...text.matchAll(/^\d+\. (\S+)/gm)].map((m) => m[1]);

/** A C library: a header that declares (with an include guard), and the file with the bodies. */
const RING = {
  'include/ring.h': [
    '#ifndef RING_BUFFER_H',
    '#define RING_BUFFER_H',
    '/* Pushes a value onto the ring buffer. */',
    'int ring_push(struct ring *r, int value);',
    '/* How many values the ring buffer holds. */',
    'int ring_size(const struct ring *r);',
    '/* Takes the oldest value off the ring buffer. */',
    'int ring_pop(struct ring *r);',
    '/* Compares two ring buffers by their sizes. */',
    'int ring_compare(const struct ring *a, const struct ring *b);',
    '/* Fills a ring buffer from an array. */',
    'int ring_fill(int a[static 4], void (*each)(int));',
    '#endif /* RING_BUFFER_H */',
  ].join('\n'),
  'src/ring.c': [
    '#include "ring.h"',
    '/* https://github.com/example/ring/issues/12 */',
    'static int ring_clamp(int n) { return n; }',
    '/* Pushes a value onto the ring buffer, dropping the oldest when full. */',
    'int ring_push(struct ring *r, int value) {',
    '  return ring_clamp(value);',
    '}',
    'int ring_pop(struct ring *r) {',
    '  return 0;',
    '}',
    'int ring_compare(const struct ring *a, const struct ring *b) {',
    '  return 0;',
    '}',
  ].join('\n'),
  'src/sort.c': ['static int ring_compare(const void *a, const void *b) {', '  return 0;', '}'].join('\n'),
  'test/ring_test.c': 'int ring_pop(struct ring *r) { return 7; }\n',
  'bindings/ring.py': 'def ring_pop(r):\n    return r\n',
  'src/fill.c': 'int ring_fill(int a[static 4], void (*each)(int)) {\n  return 0;\n}\n',
};

describe('C: where a function is defined is where its body is', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(RING)));
  afterEach(() => fx.close());

  it("asked where a function is defined: its body's file, not the header's prototype, and no include guard", async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `ring_push` defined?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.path}:${d.line}`),
      ['src/ring.c:5'],
      'the card is the body; the prototype is no definition when the body is indexed',
    );
    assert.equal(listedFiles(context.text)[0], 'src/ring.c', context.text);
    assert.match(context.text, /^1\. src\/ring\.c — Pushes a value onto the ring buffer, dropping the oldest when full\.$/m, 'a web address is no about line');
    assert.doesNotMatch(context.text, /RING_BUFFER_H/, 'an include guard is no line worth showing');

    const found = await index.findSymbol('ring_push');
    assert.deepEqual(
      found.map((d) => [d.path, d.declaration ?? false]),
      [
        ['src/ring.c', false],
        ['include/ring.h', true],
      ],
      'find_symbol lists the body first, then the declaration, marked',
    );
  });

  it("a body without a comment says what its declaration's doc says", async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `ring_pop` defined?', { detail: 'compact' });
    assert.equal(
      context.definitions.find((d) => d.path === 'src/ring.c')?.doc,
      'Takes the oldest value off the ring buffer.',
      JSON.stringify(context.definitions),
    );
    assert.match(
      context.text,
      /src\/ring\.c:8 defines ring_pop \(function\): int ring_pop\(struct ring \*r\) — Takes the oldest value off the ring buffer\./,
      context.text,
    );
  });

  it("a static body in another file is another function: it takes no header's doc", async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `ring_compare` defined?');
    assert.deepEqual(context.definitions.map((d) => `${d.path} ${d.doc ?? '(no doc)'}`).sort(), [
      'src/ring.c Compares two ring buffers by their sizes.',
      'src/sort.c (no doc)',
    ]);
  });

  it("a test's body or another language's function of the same name takes no header's doc; `[static 4]` is no static function", async () => {
    const index = await fx.open();
    await index.update();
    const pop = await index.questionContext('Where is `ring_pop` defined, in the tests and the Python bindings too?');
    assert.deepEqual(pop.definitions.map((d) => `${d.path} ${d.doc ?? '(no doc)'}`).sort(), [
      'bindings/ring.py (no doc)',
      'src/ring.c Takes the oldest value off the ring buffer.',
      'test/ring_test.c (no doc)',
    ]);
    const fill = await index.questionContext('Where is `ring_fill` defined?');
    assert.deepEqual(
      fill.definitions.map((d) => `${d.path} ${d.doc ?? '(no doc)'}`),
      ['src/fill.c Fills a ring buffer from an array.'],
    );
  });

  it('a function only declared keeps its declaration, said as one', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `ring_size` defined?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.path}:${d.line}`),
      ['include/ring.h:6'],
    );
    assert.match(context.text, /include\/ring\.h:6 declares ring_size \(function\): int ring_size\(const struct ring \*r\);/, context.text);
    assert.deepEqual(
      (await index.findSymbol('RING_BUFFER_H')).map((d) => d.name),
      [],
      'an include guard is no definition',
    );
  });
});

/** C++: methods declared in their class and defined outside it, a free function of the same name, and overloads. */
const WIDGETS = {
  'include/buffer.hpp': [
    'namespace ui {',
    'class Buffer {',
    ' public:',
    '  /** Counts the bytes in the buffer. */',
    '  int size();',
    '  /** Appends bytes. */',
    '  void append(const char* s, int n);',
    '  /** Appends another buffer. */',
    '  void append(const Buffer& b);',
    '};',
    '}',
  ].join('\n'),
  'src/buffer.cpp': [
    'int ui::Buffer::size() { return 0; }',
    'void ui::Buffer::append(const char* s, int n) {}',
    'void ui::Buffer::append(const Buffer& b) {}',
  ].join('\n'),
  'src/util.cpp': 'int size() { return 1; }\n',
};

describe("C++: a body takes its declaration's doc only when it is the same function", () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(WIDGETS)));
  afterEach(() => fx.close());

  it('the method defined outside its namespaced class, not a free function of that name; overloads told apart give nothing', async () => {
    const index = await fx.open();
    await index.update();
    const size = await index.questionContext('Where is `size` defined?');
    assert.deepEqual(size.definitions.map((d) => `${d.path} ${d.doc ?? '(no doc)'}`).sort(), [
      'src/buffer.cpp Counts the bytes in the buffer.',
      'src/util.cpp (no doc)',
    ]);
    const append = await index.questionContext('Where is `append` defined?');
    assert.deepEqual(
      append.definitions.map((d) => `${d.path}:${d.line} ${d.doc ?? '(no doc)'}`),
      ['src/buffer.cpp:2 (no doc)'],
      'two overloads documented differently: the first, once, and no doc, as which doc is whose is not known',
    );
  });
});

/** A Ruby gem: every file reopens `module Sinatra`; two classes each define a `resolve`. */
const GEM = {
  'lib/sinatra/base.rb': [
    '# frozen_string_literal: true',
    'require "rack"',
    'module Sinatra',
    '  # The request object. See Rack::Request for more info:',
    '  # https://rubydoc.info/github/rack/rack/main/Rack/Request',
    '  class Request',
    '    def resolve(path) # :nodoc:',
    '      path',
    '    end',
    '  end',
    'end',
  ].join('\n'),
  'lib/sinatra/namespace.rb': [
    '# frozen_string_literal: true',
    'module Sinatra',
    '  module Namespace',
    '    def self.new(base, pattern)',
    '      base',
    '    end',
    '  end',
    'end',
  ].join('\n'),
  'lib/sinatra/stack.rb': [
    '# frozen_string_literal: true',
    '# Handlers stacked around the app, outermost first.',
    'module Sinatra',
    '  class HandlerStack',
    '    def resolve(handler)',
    '      handler',
    '    end',
    '  end',
    'end',
  ].join('\n'),
};

describe('Ruby: qualified names, reopened modules and magic comments', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(GEM)));
  afterEach(() => fx.close());

  it('`Sinatra::Namespace` is the module inside Sinatra, not Sinatra, which every file reopens', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `Sinatra::Namespace` implemented?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.name} ${d.path}:${d.line}`),
      ['Namespace lib/sinatra/namespace.rb:3'],
    );
    assert.equal(listedFiles(context.text)[0], 'lib/sinatra/namespace.rb', context.text);
  });

  it("`HandlerStack::resolve` is that class's method, not every `resolve`", async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `HandlerStack::resolve` implemented?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.container}.${d.name} ${d.path}:${d.line}`),
      ['HandlerStack.resolve lib/sinatra/stack.rb:5'],
    );
  });

  it('a name qualified twice is looked up inside each; a qualifier with nothing of that name inside is looked up itself', async () => {
    const index = await fx.open();
    await index.update();
    const both = await index.questionContext('How do `Request.resolve` and `HandlerStack::resolve` differ?');
    assert.deepEqual(both.definitions.map((d) => `${d.container}.${d.name}`).sort(), ['HandlerStack.resolve', 'Request.resolve']);
    const elsewhere = await index.questionContext('Where is `Namespace::resolve`?');
    assert.deepEqual(
      elsewhere.definitions.map((d) => `${d.container ? `${d.container}.` : ''}${d.name}`).sort(),
      ['HandlerStack.resolve', 'Request.resolve', 'Sinatra.Namespace'],
      'no resolve is inside Namespace: every resolve, and Namespace itself',
    );
  });

  it('a file is not about its magic comment, and a signature holds no comment', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where are the handlers stacked around the app?');
    assert.match(context.text, /^1\. lib\/sinatra\/stack\.rb — Handlers stacked around the app, outermost first\.$/m, context.text);
    assert.doesNotMatch(context.text, /frozen_string_literal/, context.text);
    const request = (await index.findSymbol('Request'))[0]!;
    assert.equal(request.signature, 'class Request');
    const sinatra = (await index.findSymbol('Sinatra')).find((d) => d.path === 'lib/sinatra/base.rb')!;
    assert.equal(sinatra.signature, 'module Sinatra', 'the comments between the head and the first class are not part of it');
    const resolve = (await index.findSymbol('resolve')).find((d) => d.path === 'lib/sinatra/base.rb')!;
    assert.equal(resolve.signature, 'def resolve(path)', 'nor a comment after it');
  });
});

/** A Java builder with two constructors, and a TypeScript manager with an overloaded method. */
const CONSTRUCTORS_AND_OVERLOADS = {
  'src/main/java/com/acme/ReportBuilder.java': [
    'package com.acme;',
    '/** Builds a report step by step. */',
    'public final class ReportBuilder {',
    '  /** Creates an empty builder. */',
    '  public ReportBuilder() {}',
    '  /** Creates a builder from a report. */',
    '  ReportBuilder(Report report) {}',
    '  /** Creates a builder from a report builder. */',
    '  ReportBuilder(ReportBuilder other) {}',
    '  /** Sets the title. */',
    '  public ReportBuilder title(String title) { return this; }',
    '}',
  ].join('\n'),
  'src/main/java/com/acme/Shapes.java': [
    'package com.acme;',
    'public final class Shapes {',
    '  static final class Circle {',
    '    static final class Builder {',
    '      Shape build() { return null; }',
    '    }',
    '  }',
    '  static final class Square {',
    '    static final class Builder {',
    '      Shape build(int side) { return null; }',
    '    }',
    '  }',
    '}',
  ].join('\n'),
  'src/builders.ts': [
    'export namespace Circle {',
    '  export class Builder {',
    '    /** Builds a circle. */',
    '    make(): void;',
    '    make(radius?: number): void {',
    '      return;',
    '    }',
    '  }',
    '}',
    'export namespace Square {',
    '  export class Builder {',
    '    make(): void {',
    '      return;',
    '    }',
    '  }',
    '}',
  ].join('\n'),
  'src/reset.cpp': ['void Foo::reset() {', '  count = 0;', '}', 'void Bar::reset() {', '  size = 0;', '}'].join('\n'),
  'src/Render.kt': ['class A {', '    fun render() = 1', '}', 'class B {', '    fun render() = 2', '}'].join('\n'),
  'engine.go': ['package demo', '// Engine is the framework instance.', 'type Engine struct{}'].join('\n'),
  'src/point.rs': [
    'pub struct Point { x: i32 }',
    'impl fmt::Display for Point {',
    '    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.x) }',
    '}',
    'impl fmt::Debug for Point {',
    '    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.x) }',
    '}',
  ].join('\n'),
  'src/entityManager.ts': [
    '/** Saves entities in the database. */',
    'export class EntityManager {',
    '  /** Saves all given entities. */',
    '  save(entities: object[]): Promise<object[]>;',
    '  /** Saves the given entity. */',
    '  save(entity: object): Promise<object>;',
    '  save(entity: object | object[]): Promise<unknown> {',
    '    return Promise.resolve(entity);',
    '  }',
    '}',
  ].join('\n'),
};

describe('a name is one definition: a class without its constructors, a method without its other overloads', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(CONSTRUCTORS_AND_OVERLOADS)));
  afterEach(() => fx.close());

  it('asked where a Java class is defined: the class alone, not its constructors, in the cards and the list', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `ReportBuilder` defined?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.kind}:${d.line}`),
      ['class:3'],
    );
    assert.equal((context.text.match(/defines ReportBuilder/g) ?? []).length, 1, context.text);
    const full = await index.questionContext('Where is `ReportBuilder` defined?', { detail: 'full' });
    assert.doesNotMatch(full.text, /ReportBuilder\.java:(?:5|7|9)\b/, `nor as a line of the fuller list: ${full.text}`);
    assert.equal((await index.findSymbol('ReportBuilder')).length, 4, 'find_symbol still lists every definition of the name');
  });

  it('asked for the constructor, it is shown (once: the others are its overloads)', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is the `ReportBuilder` constructor defined?');
    assert.deepEqual(
      context.definitions.map((d) => `${d.kind}:${d.line}`),
      ['class:3', 'method:5'],
    );
  });

  it('methods of one name in two nested classes, or the same signature in two impl blocks, are two things', async () => {
    const index = await fx.open();
    await index.update();
    const build = await index.questionContext('Where is `build` defined?');
    assert.deepEqual(
      build.definitions.map((d) => `${d.path}:${d.line}`),
      ['src/main/java/com/acme/Shapes.java:5', 'src/main/java/com/acme/Shapes.java:10'],
    );
    const reset = await index.questionContext('Where is `reset` defined?');
    assert.deepEqual(
      reset.definitions.map((d) => `${d.container}.${d.name}`),
      ['Foo.reset', 'Bar.reset'],
      'C++ methods of two classes defined outside them',
    );
    const render = await index.questionContext('Where is `render` defined?');
    assert.equal(render.definitions.length, 2, 'Kotlin is read by the outline, which cannot tell its classes apart: both stay');
    const fmt = await index.questionContext('Where is `fmt` defined?');
    assert.deepEqual(
      fmt.definitions.map((d) => `${d.path}:${d.line}`),
      ['src/point.rs:3', 'src/point.rs:6'],
    );
  });

  it('an overloaded method: once, at the overload with a body', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Which file defines `save`?', { detail: 'compact' });
    assert.deepEqual(
      context.definitions.map((d) => `${d.path}:${d.line} ${d.doc}`),
      ['src/entityManager.ts:7 Saves all given entities.'],
      'the implementation, with the doc of the first overload that has one',
    );
  });

  it("an implementation shows its own class's signature's doc, not another class's", async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `make` defined?');
    assert.deepEqual(
      context.definitions.map((d) => `${d.line} ${d.doc ?? '(no doc)'}`),
      ['5 Builds a circle.', '12 (no doc)'],
    );
  });

  it('a name the question says twice is one card', async () => {
    const index = await fx.open();
    await index.update();
    const context = await index.questionContext('Where is `Engine` defined? What does Engine do?');
    assert.deepEqual(
      context.definitions.map((d) => `${d.path}:${d.line}`),
      ['engine.go:3'],
    );
  });
});
