import { strict as assert } from 'node:assert';
import { fileHead } from '../../src/core/codebaseIndex/parsing/contentChecks';
import { licenceHeaderLength } from '../../src/core/codebaseIndex/parsing/licenceHeader';
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

  it('a comment that instructs a tool, or is only a web address, is not what a file is about', () => {
    assert.equal(
      about('# frozen_string_literal: true\n# rubocop:disable Metrics/ClassLength\n# Loads the settings of each environment.\nrequire "yaml"\n'),
      'Loads the settings of each environment.',
    );
    assert.equal(about('// ReSharper disable MergeCastWithTypeCheck\nusing System;\n'), undefined);
    assert.equal(about('/* https://github.com/libuv/libuv/issues/1674 */\n#include "uv.h"\n'), undefined);
    assert.equal(
      about('/* See https://github.com/libuv/libuv#documentation for documentation. */\n#include "uv.h"\n'),
      'See https://github.com/libuv/libuv#documentation for documentation.',
    );
  });

  it('a name drawn in ASCII art is no sentence: the first line of words is, in any script', () => {
    const art =
      '"""\nRequests HTTP Library\n~~~~~~~~~~~~~~~~~~~~~\n      __\n     /__)  _  _     _   _ _/   _\n    / (   (- (/ (/ (- _)  /  _)\n"""\nimport os\n';
    assert.equal(about(art), 'Requests HTTP Library');
    assert.equal(about('// 处理会话的模块：保存每一条消息。\nimport { a } from "./a";\n'), '处理会话的模块：保存每一条消息。');
    assert.equal(about('"""\n     /__)  _  _     _   _ _/   _\n    / (   (- (/ (/ (- _)  /  _)\n"""\nimport os\n'), undefined);
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

  it('reads past a licence header, and keeps a comment that only talks about licences', () => {
    const apache = [
      '/*',
      ' * Copyright (C) 2010 Google Inc.',
      ' *',
      ' * Licensed under the Apache License, Version 2.0 (the "License");',
      ' * you may not use this file except in compliance with the License.',
      ' *',
      ' * Unless required by applicable law or agreed to in writing, software',
      ' * distributed under the License is distributed on an "AS IS" BASIS,',
      ' * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.',
      ' * See the License for the specific language governing permissions and',
      ' * limitations under the License.',
      ' */',
      '',
    ].join('\n');
    const java = `${apache}\npackage com.example.stream;\n\nimport java.io.Reader;\n\n/** Reads a JSON encoded value as a stream of tokens. */\npublic class JsonReader {}\n`;
    const head = fileHead(java);
    assert.ok(head.startsWith('package com.example.stream;'), head);
    assert.doesNotMatch(head, /WARRANTIES|License/);
    assert.equal(about(java), undefined, 'the class doc after the imports is the class’s (aboutFile falls back to it), not the licence');

    const mit = '# Copyright (c) 2021 Example Authors\n# SPDX-License-Identifier: MIT\n\n"""Session handling for the client."""\nimport os\n';
    assert.equal(about(mit), 'Session handling for the client.');
    const asf = '#!/usr/bin/env python\n# Licensed to the Example Foundation under one\n# or more agreements.\nimport os';
    assert.equal(licenceHeaderLength(asf.split('\n')), 3);

    const own = '// The licence checker: reads the licence field of package.json.\nexport function check() {}\n';
    assert.equal(licenceHeaderLength(own.split('\n')), 0);
    assert.equal(about(own), 'The licence checker: reads the licence field of package.json.');
    const glued = '# Copyright (c) 2021 Example Authors\n# Licensed under the MIT license.\n#\n# Tokenizes templates for the renderer.\nimport re\n';
    assert.equal(about(glued), 'Tokenizes templates for the renderer.', 'the paragraph after the licence, in the same run of comments');
    const mitTail =
      '// Copyright 2021 Example\n// Permission is hereby granted, free of charge, to any person\n//\n// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,\n// EXPRESS OR IMPLIED.\npackage x\n';
    assert.equal(fileHead(mitTail), 'package x', 'every paragraph of the licence is read past');
    const bsdThenOwn =
      '/*\n * Copyright (c) 2016 Foo\n * SPDX-License-Identifier: BSD-3-Clause\n *\n * Bar driver: handles the frobnicator interrupts.\n */\n#include <bar.h>\n';
    assert.equal(about(bsdThenOwn), 'Bar driver: handles the frobnicator interrupts.', 'a block comment with its own paragraph is kept');
    const notice = '/** Builds the copyright notice shown in the About dialog. */\nexport function notice() {}\n';
    assert.equal(about(notice), 'Builds the copyright notice shown in the About dialog.');
    const encoded = '# -*- coding: utf-8 -*-\n\n# Copyright 2020 Example\n# Licensed under the MIT license.\n\nimport os\n';
    assert.equal(fileHead(encoded), 'import os', 'an encoding line and a blank line before the licence');
    const mpl = '/* This Source Code Form is subject to the terms of the Mozilla Public\n * License, v. 2.0. */\npackage y\n';
    assert.equal(fileHead(mpl), 'package y');
    assert.equal(licenceHeaderLength(['#include <stdio.h>', '// Copyright 2020']), 0, 'a preprocessor line is code');
    assert.equal(licenceHeaderLength(['/* Copyright 2020 Example', ' * and the rest is cut off']), 0, 'an unclosed comment is not skipped');
  });
});
