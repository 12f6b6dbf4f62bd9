/**
 * One small file per language the index parses, and the definitions it must find in it: name, kind,
 * line (1-based), and for some the container or doc line. Lines are counted by hand from the text.
 */
export interface GrammarFixture {
  path: string;
  text: string;
  /** `declaration`: declared there without its body (a C or C++ prototype); every other definition has its body. */
  expect: Array<{ name: string; kind: string; line: number; container?: string; doc?: string; declaration?: true }>;
  /** Names that must not be found as definitions at all. */
  absent?: string[];
  imports?: string[];
}

export const GRAMMAR_FIXTURES: GrammarFixture[] = [
  {
    path: 'src/reader.ts',
    text: [
      "import { open } from './files';", // 1
      '', // 2
      '/** Reads whole files. */', // 3
      'export class FileReader {', // 4
      '  /** Reads one file. */', // 5
      '  read(path: string): string {', // 6
      '    return open(path);', // 7
      '  }', // 8
      '}', // 9
      'export interface ReadOptions { encoding: string }', // 10
      'export type Encoding = string;', // 11
      'export enum Mode { Fast, Safe }', // 12
      'export const MAX_SIZE = 10;', // 13
      'export const readAll = (paths: string[]) => paths.map(open);', // 14
      'export function closeAll(): void {}', // 15
    ].join('\n'),
    expect: [
      { name: 'FileReader', kind: 'class', line: 4, doc: 'Reads whole files.' },
      { name: 'read', kind: 'method', line: 6, container: 'FileReader', doc: 'Reads one file.' },
      { name: 'ReadOptions', kind: 'interface', line: 10 },
      { name: 'Encoding', kind: 'type', line: 11 },
      { name: 'Mode', kind: 'enum', line: 12 },
      { name: 'MAX_SIZE', kind: 'constant', line: 13 },
      { name: 'readAll', kind: 'function', line: 14 },
      { name: 'closeAll', kind: 'function', line: 15 },
    ],
    imports: ['./files'],
  },
  {
    path: 'src/view.tsx',
    text: ['export function Greeting(props: { name: string }) {', '  return <b>{props.name}</b>;', '}', 'export class Panel extends Base {}'].join('\n'),
    expect: [
      { name: 'Greeting', kind: 'function', line: 1 },
      { name: 'Panel', kind: 'class', line: 4 },
    ],
  },
  {
    path: 'lib/server.js',
    text: [
      "const http = require('http');",
      '',
      '// Starts the server.',
      'function startServer(port) {',
      '  return http.createServer().listen(port);',
      '}',
      'class Router {',
      '  route(path) {}',
      '}',
      'module.exports.stop = function () {};',
    ].join('\n'),
    expect: [
      { name: 'startServer', kind: 'function', line: 4, doc: 'Starts the server.' },
      { name: 'Router', kind: 'class', line: 7 },
      { name: 'route', kind: 'method', line: 8, container: 'Router' },
      { name: 'stop', kind: 'function', line: 10 },
    ],
    imports: ['http'],
  },
  {
    path: 'pkg/sessions.py',
    text: [
      'import os',
      'from .adapters import HTTPAdapter',
      '',
      'class Session:',
      '    """Keeps cookies across requests."""',
      '',
      '    def send(self, request):',
      '        """Sends a prepared request."""',
      '        return request',
      '',
      'def merge_settings(a, b):',
      '    return a',
      'DEFAULT_TIMEOUT = 30',
    ].join('\n'),
    expect: [
      { name: 'Session', kind: 'class', line: 4, doc: 'Keeps cookies across requests.' },
      { name: 'send', kind: 'method', line: 7, container: 'Session', doc: 'Sends a prepared request.' },
      { name: 'merge_settings', kind: 'function', line: 11 },
      { name: 'DEFAULT_TIMEOUT', kind: 'constant', line: 13 },
    ],
    imports: ['os', '.adapters'],
  },
  {
    path: 'engine.go',
    text: [
      'package gin',
      '',
      'import "net/http"',
      '',
      '// Engine is the framework instance.',
      'type Engine struct {',
      '\tpool int',
      '}',
      '',
      '// ServeHTTP handles a request.',
      'func (engine *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {',
      '}',
      '',
      'func New() *Engine { return nil }',
      'type Handler interface { Handle() }',
      'const Version = "1"',
    ].join('\n'),
    expect: [
      { name: 'Engine', kind: 'struct', line: 6, doc: 'Engine is the framework instance.' },
      { name: 'ServeHTTP', kind: 'method', line: 11, container: 'Engine', doc: 'ServeHTTP handles a request.' },
      { name: 'New', kind: 'function', line: 14 },
      { name: 'Handler', kind: 'interface', line: 15 },
      { name: 'Handle', kind: 'method', line: 15 },
      { name: 'Version', kind: 'constant', line: 16 },
    ],
    imports: ['net/http'],
  },
  {
    path: 'src/searcher.rs',
    text: [
      'use crate::sink::Sink;',
      'mod lines;',
      '',
      '/// Searches bytes.',
      'pub struct Searcher {',
      '    config: u8,',
      '}',
      '',
      'impl Searcher {',
      '    /// Searches a path.',
      '    pub fn search_path(&self) -> bool {',
      '        true',
      '    }',
      '}',
      'pub trait Matcher { fn find(&self); }',
      'pub enum Kind { A, B }',
      'macro_rules! log { () => {} }',
    ].join('\n'),
    expect: [
      { name: 'lines', kind: 'module', line: 2 },
      { name: 'Searcher', kind: 'struct', line: 5, doc: 'Searches bytes.' },
      { name: 'search_path', kind: 'method', line: 11, container: 'Searcher', doc: 'Searches a path.' },
      { name: 'Matcher', kind: 'trait', line: 15 },
      { name: 'find', kind: 'method', line: 15, container: 'Matcher' },
      { name: 'Kind', kind: 'enum', line: 16 },
      { name: 'log', kind: 'macro', line: 17 },
    ],
    imports: ['crate::sink::Sink', 'lines'],
  },
  {
    path: 'src/main/java/app/Cache.java',
    text: [
      'package app;',
      'import java.util.Map;',
      '',
      '/** A small cache. */',
      'public class Cache {',
      '    public Cache() {}',
      '    public String get(String key) { return null; }',
      '}',
      'interface Store { void put(String k); }',
      'enum Policy { LRU }',
    ].join('\n'),
    expect: [
      { name: 'Cache', kind: 'class', line: 5, doc: 'A small cache.' },
      { name: 'get', kind: 'method', line: 7, container: 'Cache' },
      { name: 'Store', kind: 'interface', line: 9 },
      { name: 'put', kind: 'method', line: 9, container: 'Store' },
      { name: 'Policy', kind: 'enum', line: 10 },
    ],
    imports: ['java.util.Map'],
  },
  {
    path: 'src/buffer.c',
    text: [
      '#include "buffer.h"',
      '#define BUFFER_SIZE 64',
      '',
      '/* Grows the buffer. */',
      'int buffer_grow(struct buffer *b, int n) {',
      '  return n;',
      '}',
      'struct buffer { int len; };',
      'typedef int handle_t;',
    ].join('\n'),
    expect: [
      { name: 'BUFFER_SIZE', kind: 'macro', line: 2 },
      { name: 'buffer_grow', kind: 'function', line: 5, doc: 'Grows the buffer.' },
      { name: 'buffer', kind: 'struct', line: 8 },
      { name: 'handle_t', kind: 'type', line: 9 },
    ],
    imports: ['buffer.h'],
  },
  {
    // A header: its include guard is no definition, a prototype is a declaration, a macro (a flag too) is a definition.
    path: 'include/buffer.h',
    text: [
      '#ifndef BUFFER_H', // 1
      '#define BUFFER_H', // 2
      '#define BUFFER_MAX 4096', // 3
      '/* Grows the buffer by n bytes. */', // 4
      'int buffer_grow(struct buffer *b, int n);', // 5
      'const char* buffer_name(const struct buffer *b);', // 6
      '#define HAVE_BUFFER_NAMES', // 7
      '#define SCREEN_H 480', // 8
      '#endif /* BUFFER_H */', // 9
    ].join('\n'),
    expect: [
      { name: 'BUFFER_MAX', kind: 'macro', line: 3 },
      { name: 'buffer_grow', kind: 'function', line: 5, doc: 'Grows the buffer by n bytes.', declaration: true },
      { name: 'buffer_name', kind: 'function', line: 6, declaration: true },
      { name: 'HAVE_BUFFER_NAMES', kind: 'macro', line: 7 },
      { name: 'SCREEN_H', kind: 'macro', line: 8 },
    ],
    absent: ['BUFFER_H'],
  },
  {
    path: 'src/widget.cpp',
    text: [
      '#include <vector>',
      'namespace ui {',
      'class Widget {',
      ' public:',
      '  void draw();',
      '  Widget* clone();',
      '};',
      'void Widget::draw() {}',
      '}',
    ].join('\n'),
    expect: [
      { name: 'ui', kind: 'module', line: 2 },
      { name: 'Widget', kind: 'class', line: 3, container: 'ui' },
      { name: 'draw', kind: 'method', line: 5, container: 'Widget', declaration: true },
      { name: 'clone', kind: 'method', line: 6, container: 'Widget', declaration: true },
      { name: 'draw', kind: 'function', line: 8, container: 'Widget' },
    ],
    imports: ['vector'],
  },
  {
    path: 'src/Billing.cs',
    text: [
      'using System.Text;',
      'namespace Shop.Billing {',
      '  /// <summary>Computes invoices.</summary>',
      '  public class InvoiceService {',
      '    public decimal Total { get; set; }',
      '    public decimal Compute(int id) { return 0; }',
      '  }',
      '  public interface IPayment { void Pay(); }',
      '}',
    ].join('\n'),
    expect: [
      { name: 'Billing', kind: 'module', line: 2, container: 'Shop' },
      { name: 'InvoiceService', kind: 'class', line: 4 },
      { name: 'Total', kind: 'field', line: 5, container: 'InvoiceService' },
      { name: 'Compute', kind: 'method', line: 6, container: 'InvoiceService' },
      { name: 'IPayment', kind: 'interface', line: 8 },
    ],
    imports: ['System.Text'],
  },
  {
    path: 'lib/cart.rb',
    text: [
      "require_relative 'item'",
      '',
      '# A shopping cart.',
      'class Cart',
      '  def add(item)',
      '  end',
      '  def self.empty',
      '  end',
      'end',
      'module Pricing',
      'end',
    ].join('\n'),
    expect: [
      { name: 'Cart', kind: 'class', line: 4, doc: 'A shopping cart.' },
      { name: 'add', kind: 'method', line: 5, container: 'Cart' },
      { name: 'empty', kind: 'method', line: 7, container: 'Cart' },
      { name: 'Pricing', kind: 'module', line: 10 },
    ],
    imports: ['item'],
  },
  {
    path: 'src/Order.php',
    text: [
      '<?php',
      'namespace App\\Orders;',
      'use App\\Models\\User;',
      '',
      'class OrderController {',
      '    public function store($request) {}',
      '}',
      'function helper_total() {}',
      'interface Shippable {}',
      'trait Logs {}',
    ].join('\n'),
    expect: [
      { name: 'OrderController', kind: 'class', line: 5 },
      { name: 'store', kind: 'method', line: 6, container: 'OrderController' },
      { name: 'helper_total', kind: 'function', line: 8 },
      { name: 'Shippable', kind: 'interface', line: 9 },
      { name: 'Logs', kind: 'trait', line: 10 },
    ],
    imports: ['App\\Models\\User'],
  },
  {
    path: 'scripts/deploy.sh',
    text: [
      '#!/usr/bin/env bash',
      'TARGET=prod',
      '',
      '# Uploads the build.',
      'upload_build() {',
      '  echo up',
      '}',
      'function restart_service {',
      '  echo restart',
      '}',
    ].join('\n'),
    expect: [
      { name: 'TARGET', kind: 'constant', line: 2 },
      { name: 'upload_build', kind: 'function', line: 5, doc: 'Uploads the build.' },
      { name: 'restart_service', kind: 'function', line: 8 },
    ],
  },
  {
    path: 'tools/Build.ps1',
    text: ['function Invoke-Build {', '  param($Target)', '}', 'class Builder {', '  [void] Run() {}', '}'].join('\n'),
    expect: [
      { name: 'Invoke-Build', kind: 'function', line: 1 },
      { name: 'Builder', kind: 'class', line: 4 },
      { name: 'Run', kind: 'method', line: 5, container: 'Builder' },
    ],
  },
  {
    path: 'styles/site.css',
    text: [':root { --brand-color: #333; }', '.card-header { color: red; }', '#main-nav { display: flex; }', '@keyframes fade-in { from { opacity: 0 } }'].join(
      '\n',
    ),
    expect: [
      { name: '--brand-color', kind: 'variable', line: 1 },
      { name: 'card-header', kind: 'selector', line: 2 },
      { name: 'main-nav', kind: 'selector', line: 3 },
      { name: 'fade-in', kind: 'selector', line: 4 },
    ],
  },
  {
    path: 'config/app.ini',
    text: ['[database]', 'host = localhost', '', '[cache]', 'ttl = 60'].join('\n'),
    expect: [
      { name: 'database', kind: 'section', line: 1 },
      { name: 'cache', kind: 'section', line: 4 },
    ],
  },
];

/** Languages without a grammar here: definitions from the regex outline (or headings), at the right lines. */
export const OUTLINE_FIXTURES: GrammarFixture[] = [
  {
    path: 'app/Repo.kt',
    text: ['package app', '', 'class Repository(val db: Db) {', '}', 'fun loadAll(): List<Item> = listOf()'].join('\n'),
    expect: [
      { name: 'Repository', kind: 'class', line: 3 },
      { name: 'loadAll', kind: 'function', line: 5 },
    ],
  },
  {
    path: 'docs/guide.md',
    text: ['# Guide', '', '```sh', '# not a heading', '```', '## Configuration'].join('\n'),
    expect: [
      { name: 'Guide', kind: 'section', line: 1 },
      { name: 'Configuration', kind: 'section', line: 6 },
    ],
  },
];
