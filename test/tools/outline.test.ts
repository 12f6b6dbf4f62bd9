import { strict as assert } from 'node:assert';
import { languageFromPath } from '../../src/core/tools/file/languages';
import { extractOutline } from '../../src/core/tools/file/outline';

describe('outline extraction', () => {
  it('TypeScript: leading doc comment, then top-level declaration lines as written, without bodies or imports', () => {
    const source = [
      '/**',
      ' * Resolves user paths inside the workspace.',
      ' */',
      "import { join } from 'node:path';",
      "const fs = require('fs');",
      'export interface Options {',
      '  strict: boolean;',
      '}',
      'export type Mode = "a" | "b";',
      'export class Resolver {',
      '  resolve(): void {}',
      '}',
      'export async function open(root: string): Promise<void> {',
      '  const inner = 1;',
      '}',
      'function helper() {}',
      'export default Resolver;',
      "export { join } from './join';",
    ].join('\n');
    assert.equal(
      extractOutline(source, 'typescript'),
      [
        'Resolves user paths inside the workspace.',
        'export interface Options {',
        'export type Mode = "a" | "b";',
        'export class Resolver {',
        'export async function open(root: string): Promise<void> {',
        'function helper() {}',
        'export default Resolver;',
        "export { join } from './join';",
      ].join('\n'),
    );
  });

  it('Python: module docstring after a shebang, classes, functions and constants', () => {
    const source = [
      '#!/usr/bin/env python3',
      '"""Command-line entry point.',
      '',
      'Parses arguments."""',
      'import os',
      'MAX_SIZE = 10',
      'class Runner:',
      '    def run(self):',
      '        pass',
      'async def main():',
      '    pass',
    ].join('\n');
    assert.equal(
      extractOutline(source, 'python'),
      ['Command-line entry point.', 'Parses arguments.', 'MAX_SIZE = 10', 'class Runner:', 'async def main():'].join('\n'),
    );
  });

  it('Go: package comment, package clause, funcs and types', () => {
    const source = [
      '// Package store keeps conversations on disk.',
      'package store',
      '',
      'import "os"',
      'type Store struct {',
      '\tdir string',
      '}',
      'func (s *Store) Save() error {',
      '\treturn nil',
      '}',
      'func New(dir string) *Store {',
    ].join('\n');
    assert.equal(
      extractOutline(source, 'go'),
      [
        'Package store keeps conversations on disk.',
        'package store',
        'type Store struct {',
        'func (s *Store) Save() error {',
        'func New(dir string) *Store {',
      ].join('\n'),
    );
  });

  it('Rust: inner doc comments and pub items, not indented ones', () => {
    const source = [
      '//! Parses workflow files.',
      'use std::fs;',
      'pub struct Parser {',
      '    depth: usize,',
      '}',
      'impl Parser {',
      '    pub fn new() -> Self {',
      '    }',
      '}',
      'pub(crate) fn parse(text: &str) -> Result<(), Error> {',
      'enum Token { A, B }',
      'macro_rules! check {',
    ].join('\n');
    assert.equal(
      extractOutline(source, 'rust'),
      [
        'Parses workflow files.',
        'pub struct Parser {',
        'impl Parser {',
        'pub(crate) fn parse(text: &str) -> Result<(), Error> {',
        'enum Token { A, B }',
        'macro_rules! check {',
      ].join('\n'),
    );
  });

  it('Markdown: headings only, ignoring "#" lines inside code fences', () => {
    const source = ['# CodeWiki', 'Intro text.', '## Install', '```bash', '# not a heading', '```', '### Usage', 'text'].join('\n');
    assert.equal(extractOutline(source, 'markdown'), ['# CodeWiki', '## Install', '### Usage'].join('\n'));
  });

  it('Java, C, Ruby and shell get their declarations', () => {
    assert.equal(
      extractOutline('package a.b;\npublic class Foo {\n    public int size() {\n        return 1;\n    }\n    private void hidden() {}\n}', 'java'),
      'package a.b;\npublic class Foo {\npublic int size() {',
    );
    assert.equal(
      extractOutline('#include <stdio.h>\n#define MAX 10\nstruct point { int x; };\nint add(int a, int b) {\n    return a + b;\n}', 'c'),
      '#define MAX 10\nstruct point { int x; };\nint add(int a, int b) {',
    );
    assert.equal(extractOutline('# Helpers\nmodule Util\n  def self.go\n  end\nend', 'ruby'), 'Helpers\nmodule Util\ndef self.go');
    assert.equal(
      extractOutline('#!/bin/bash\n# Deploys the site.\nset -e\nDEPLOY_DIR=/srv\ndeploy() {\n  echo hi\n}', 'shell'),
      'Deploys the site.\nDEPLOY_DIR=/srv\ndeploy() {',
    );
  });

  it('falls back to the first non-blank lines for plain text and declaration-less code', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const outline = extractOutline(`\n\n${text}`, 'text');
    assert.equal(outline.split('\n').length, 11);
    assert.ok(outline.startsWith('line 1\nline 2'));
    assert.ok(outline.endsWith('line 10\n…'));
    assert.equal(extractOutline('console.log("hi");\n', 'javascript'), 'console.log("hi");');
  });

  it('shows the real lines: opening lines of code keep their braces, so none is left unbalanced', () => {
    const source = [
      '#!/usr/bin/env node',
      "import { main } from './main';",
      'main(process.argv.slice(2)).then(',
      '  (code) => {',
      '    process.exitCode = code;',
      '  },',
      ');',
    ].join('\n');
    assert.equal(extractOutline(source, 'typescript'), source);
  });

  it('keeps summaries short: at most 20 lines and about 1,200 characters', () => {
    const many = Array.from({ length: 100 }, (_, i) => `export const value${i} = ${i};`).join('\n');
    const outline = extractOutline(many, 'typescript');
    assert.equal(outline.split('\n').length, 21);
    assert.ok(outline.endsWith('\n…'));
    const long = Array.from({ length: 15 }, (_, i) => `export function f${i}(${'a: number, '.repeat(20)}) {}`).join('\n');
    assert.ok(extractOutline(long, 'typescript').length <= 1200);
  });

  it('maps extensions and well-known names to languages', () => {
    assert.equal(languageFromPath('src/a.tsx'), 'typescript');
    assert.equal(languageFromPath('x/main.PY'), 'python');
    assert.equal(languageFromPath('Dockerfile'), 'dockerfile');
    assert.equal(languageFromPath('notes'), 'text');
    assert.equal(languageFromPath('lib.rs'), 'rust');
  });
});
