import { strict as assert } from 'node:assert';
import { fileHead } from '../../src/core/codebaseIndex/parsing/contentChecks';
import { openingComment } from '../../src/core/codebaseIndex/search/fileAbout';

/** A file's opening comment as the index reads it (from its saved head): the line a small model reads about the file. */
const about = (text: string) => openingComment(fileHead(text));

describe('what a file is about: its opening comment, never a comment on its code or on an import', () => {
  it('a module docstring, even one the head cuts short; an encoding line is not prose', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Line ${i} of a long explanation of sessions.`).join('\n');
    assert.equal(
      about(`"""\nThis module provides a Session object to persist settings.\n${long}\n"""\nimport os\n`),
      'This module provides a Session object to persist settings.',
    );
    assert.equal(
      about('# -*- coding: utf-8 -*-\n"""Sessions: persist settings across requests."""\nimport os\n'),
      'Sessions: persist settings across requests.',
    );
  });

  it('Go: the package doc after a licence; a comment on a var after the imports is not about the file', () => {
    const licence =
      '// Copyright 2014 Manu Martinez-Almeida. All rights reserved.\n// Use of this source code is governed by a MIT style\n// license that can be found in the LICENSE file.\n\n';
    assert.equal(about(`${licence}// Package binding decodes request bodies.\npackage binding\n`), 'Package binding decodes request bodies.');
    assert.equal(
      about(
        `${licence}package gin\n\nimport (\n\t"fmt"\n\t"regexp"\n)\n\n// regEnLetter matches english letters for http method name\nvar regEnLetter = regexp.MustCompile("^[A-Z]+$")\n`,
      ),
      undefined,
    );
    assert.equal(about('package foo\n\n//go:generate mockgen -source foo.go -destination mock.go\nimport "fmt"\n'), undefined);
  });

  it('Python and TypeScript: a line comment among the imports is about the next import; a block comment between imports is about the file', () => {
    assert.equal(about('import os\n# numpy speeds up the transforms when installed\nimport numpy as np\n\ndef transform(x):\n    return x\n'), undefined);
    assert.equal(
      about("import {\n  a,\n  type B,\n} from './x';\n/** The router's tree of routes and its lookups. */\nimport { c } from './c';\n\nexport class T {}\n"),
      "The router's tree of routes and its lookups.",
    );
    assert.equal(about("'use client';\n/** Client-side counter widget for the page. */\nimport x from 'y';\n"), 'Client-side counter widget for the page.');
  });

  it('C: the comment under an include guard; a function comment after the includes is not about the file', () => {
    assert.equal(
      about("#ifndef FOO_H\n#define FOO_H\n/* foo.h: the greeting printer's interface. */\n#include <stdio.h>\n"),
      "foo.h: the greeting printer's interface.",
    );
    assert.equal(about('#include <stdio.h>\n/* Prints the greeting and exits. */\nint\nmain(void)\n{\n}\n'), undefined);
  });

  it('a licence block comment is skipped, and the line comment after it is the file’s own', () => {
    assert.equal(
      about('/* Copyright 2020 Example Corp. Licensed under MIT. */\n// The router: matches paths to handlers.\nexport function route() {}\n'),
      'The router: matches paths to handlers.',
    );
    assert.equal(
      about('//! The gitignore module matches globs from a gitignore file.\nuse std::path::Path;\n'),
      'The gitignore module matches globs from a gitignore file.',
    );
  });
});
