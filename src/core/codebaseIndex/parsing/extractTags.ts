import type { Node, QueryMatch } from 'web-tree-sitter';
import type { SymbolDef, SymbolKind } from '../codeIndexTypes';
import type { TagQuery } from '../languages/tagQuery';
import { firstDocLine } from './docComments';
import { loadGrammar } from './treeSitterRuntime';

export interface FileTags {
  symbols: SymbolDef[];
  imports: string[];
}

const MAX_SIGNATURE_CHARS = 200;
const MAX_SIGNATURE_LINES = 8;
/** A generated file can define tens of thousands of names; past this the rest add noise, not findability. */
const MAX_SYMBOLS_PER_FILE = 2_000;

/** A definition or scope as the query found it, before containers are known. */
interface Found {
  node: Node;
  nameNode: Node;
  kind: SymbolKind | 'scope';
  /** Captured as `@declaration.<kind>`: declared without its body. */
  declaration?: true;
}

/** Definitions (with signature, container and doc line) and imports of one file, by its grammar's tag query. */
export async function extractTags(text: string, tags: TagQuery): Promise<FileTags> {
  const { parser, query } = await loadGrammar(tags);
  const tree = parser.parse(text);
  if (!tree) return { symbols: [], imports: [] };
  try {
    const found: Found[] = [];
    const imports = new Set<string>();
    for (const match of query.matches(tree.rootNode)) collect(match, found, imports);
    return { symbols: toSymbols(found, text, tags), imports: [...imports] };
  } finally {
    tree.delete();
  }
}

function collect(match: QueryMatch, found: Found[], imports: Set<string>): void {
  let definition: Node | undefined;
  let kind: Found['kind'] | undefined;
  let nameNode: Node | undefined;
  let declaration = false;
  for (const capture of match.captures) {
    if (capture.name === 'name') nameNode = capture.node;
    else if (capture.name === 'import') imports.add(unquote(capture.node.text));
    else if (capture.name === 'scope') [definition, kind] = [capture.node, 'scope'];
    else if (capture.name.startsWith('definition.')) [definition, kind] = [capture.node, capture.name.slice('definition.'.length) as SymbolKind];
    else if (capture.name.startsWith('declaration.'))
      [definition, kind, declaration] = [capture.node, capture.name.slice('declaration.'.length) as SymbolKind, true];
  }
  if (definition && kind && nameNode) found.push({ node: definition, nameNode, kind, ...(declaration && { declaration: true }) });
}

function toSymbols(found: Found[], text: string, tags: TagQuery): SymbolDef[] {
  // Outer before inner; for one node matched twice (a Go struct is also a type), the specific kind first.
  found.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex || generality(a.kind) - generality(b.kind));
  const symbols: SymbolDef[] = [];
  const seen = new Set<string>();
  // Open definitions enclosing the current one, outermost first.
  const open: Array<{ end: number; name: string; kind: Found['kind'] }> = [];
  for (const item of found) {
    while (open.length && open.at(-1)!.end <= item.node.startIndex) open.pop();
    const { name, qualifier } = splitQualified(item.nameNode.text);
    const enclosing = open.at(-1);
    const container = receiverOf(item.node) ?? qualifier ?? enclosing?.name;
    open.push({ end: item.node.endIndex, name, kind: item.kind });
    if (item.kind === 'scope' || !name) continue;
    const line = item.node.startPosition.row + 1;
    const key = `${name}\u0000${line}`;
    if (seen.has(key)) continue; // one node matched twice: the specific kind came first
    seen.add(key);
    if (symbols.length >= MAX_SYMBOLS_PER_FILE) break;
    const kind = refineKind(item, enclosing?.kind, tags, name);
    const symbol: SymbolDef = { name, kind, line, endLine: item.node.endPosition.row + 1, signature: signatureOf(item.node, text, tags.grammar) };
    if (container && container !== name) symbol.container = container;
    if (item.declaration) symbol.declaration = true;
    const doc = firstDocLine(item.node, text);
    if (doc) symbol.doc = doc;
    symbols.push(symbol);
  }
  return symbols;
}

function generality(kind: Found['kind']): number {
  return kind === 'type' || kind === 'variable' ? 1 : 0;
}

function refineKind(item: Found, enclosing: Found['kind'] | undefined, tags: TagQuery, name: string): SymbolKind {
  const kind = item.kind as SymbolKind;
  if (kind === 'function' && enclosing && tags.methodContainers?.includes(enclosing)) return 'method';
  if (kind === 'variable') {
    const value = item.node.childForFieldName('value') ?? item.node.childForFieldName('right');
    if (value && /^(arrow_function|function_expression|function|lambda|generator_function)$/.test(value.type)) return 'function';
    if (/^[A-Z][A-Z0-9_]+$/.test(name)) return 'constant';
  }
  return kind;
}

/** `Foo::bar`, `a.b.C`, `Outer::Inner` (C++, Ruby, C#, namespaces): the last part is the name. */
function splitQualified(raw: string): { name: string; qualifier?: string } {
  const text = raw.replace(/<[^<>]*>/g, '').trim();
  const parts = text.split(/::|\./).filter(Boolean);
  if (parts.length <= 1) return { name: unquote(text) };
  return { name: parts.at(-1)!, qualifier: parts.slice(0, -1).join('::') };
}

/** A Go method's receiver type: `func (s *Server) Serve()` belongs to Server. */
function receiverOf(node: Node): string | undefined {
  if (node.type !== 'method_declaration') return undefined;
  const receiver = node.childForFieldName('receiver')?.text;
  return receiver ? /([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*$/.exec(receiver)?.[1] : undefined;
}

/** Grammars whose `#` starts a comment (in C and C++ it starts a preprocessor line, in PHP an attribute: `#[Route]`). */
const HASH_COMMENTS = new Set(['ruby', 'python', 'bash', 'powershell']);
/** A line that is only a comment, in a grammar whose comments are `//` and `/* … *\/` (a block's `* …` lines too). */
const SLASH_COMMENT_LINE = /^\s*(?:\/\/.*|\/\*(?:(?!\*\/).)*\*\/\s*|\/\*(?!.*\*\/).*|\*(?:\s.*)?|\*\/\s*)$/;
const HASH_COMMENT_LINE = /^\s*#/;
/** A comment after code on a line where `#` starts comments: `def resolve(path) # :nodoc:` (not `#{…}` in Ruby). */
const TRAILING_HASH_COMMENT = /\s+#(?:\s.*)?$/;

/**
 * The declaration up to its body, on one line: `export function foo(a: number): string`. Whole comment lines between
 * it and its body are left out (Ruby's `module Sinatra` and the doc of the class under it), and so is a `#` comment
 * after it; a `//` comment after a parameter stays (it may say what the parameter is).
 */
function signatureOf(node: Node, text: string, grammar: string): string {
  const lineStart = text.lastIndexOf('\n', node.startIndex - 1) + 1;
  const body = node.childForFieldName('body');
  let end = body && body.startIndex > node.startIndex ? body.startIndex : text.indexOf('\n', node.startIndex);
  if (end < 0) end = text.length;
  let head = text.slice(lineStart, Math.min(end, node.endIndex));
  const hashComments = HASH_COMMENTS.has(grammar);
  const commentLine = hashComments ? HASH_COMMENT_LINE : SLASH_COMMENT_LINE;
  const lines = head
    .split('\n')
    .filter((line, index) => index === 0 || !commentLine.test(line))
    .map((line) => (hashComments ? line.replace(TRAILING_HASH_COMMENT, '') : line));
  head = lines.join('\n');
  if (lines.length > MAX_SIGNATURE_LINES) head = `${lines.slice(0, MAX_SIGNATURE_LINES).join(' ')} …`;
  head = head
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[{:=]$/, '');
  return head.length > MAX_SIGNATURE_CHARS ? `${head.slice(0, MAX_SIGNATURE_CHARS - 1)}…` : head;
}

function unquote(text: string): string {
  return text.replace(/^["'`<]|["'`>]$/g, '');
}
