import type { SymbolDef, SymbolKind } from '../codeIndexTypes';
import { outlineRulesFor } from '../../tools/file/outlineRules';

const KEYWORD_KIND: Record<string, SymbolKind> = {
  class: 'class',
  object: 'class',
  record: 'class',
  interface: 'interface',
  protocol: 'interface',
  trait: 'trait',
  enum: 'enum',
  struct: 'struct',
  type: 'type',
  typealias: 'type',
  fun: 'function',
  func: 'function',
  def: 'function',
  fn: 'function',
  function: 'function',
  module: 'module',
  namespace: 'module',
  package: 'module',
  extension: 'class',
  val: 'constant',
  const: 'constant',
  let: 'variable',
  var: 'variable',
};
const NAMED_BY_KEYWORD = new RegExp(String.raw`\b(${Object.keys(KEYWORD_KIND).join('|')})\s+([A-Za-z_$][\w$]*)`);
const NAMED_BEFORE_PAREN = /([A-Za-z_$][\w$]*)\s*\(/;
const MAX_SYMBOLS = 500;

/**
 * Definitions of files no grammar covers (Kotlin, Scala, Swift, Dart, …) from the regex outline that
 * `get_file_summaries` already uses, and Markdown headings as sections, so a README's "## Configuration"
 * can be found by name. Lines are exact; extents are not known, so a definition ends where it starts.
 */
export function outlineTags(text: string, language: string): SymbolDef[] {
  if (language === 'markdown') return markdownSections(text);
  const rules = outlineRulesFor(language);
  if (!rules) return [];
  const symbols: SymbolDef[] = [];
  const pattern = new RegExp(rules.declarations.source, rules.declarations.flags);
  for (let match = pattern.exec(text); match && symbols.length < MAX_SYMBOLS; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const declaration = match[0].trim();
    const named = NAMED_BY_KEYWORD.exec(declaration);
    const name = named?.[2] ?? NAMED_BEFORE_PAREN.exec(declaration)?.[1];
    if (!name || rules.skip?.test(declaration)) continue;
    // A pattern that starts with \s* can begin on the blank line before the declaration.
    const line = lineAt(text, match.index + (match[0].length - match[0].trimStart().length));
    symbols.push({ name, kind: named ? KEYWORD_KIND[named[1]!]! : 'function', line, endLine: line, signature: declaration.slice(0, 200) });
  }
  return symbols;
}

function markdownSections(text: string): SymbolDef[] {
  const symbols: SymbolDef[] = [];
  let fence: string | undefined;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && symbols.length < MAX_SYMBOLS; index++) {
    const line = lines[index]!;
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark) {
      if (!fence) fence = fenceMark;
      else if (fenceMark.startsWith(fence)) fence = undefined;
      continue;
    }
    const heading = fence ? undefined : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) symbols.push({ name: heading[2]!, kind: 'section', line: index + 1, endLine: index + 1, signature: line.trim().slice(0, 200) });
  }
  return symbols;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
