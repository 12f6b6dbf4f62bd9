import type { Node } from 'web-tree-sitter';

/** Nodes that wrap a definition without changing what it is: its doc comment sits before the wrapper. */
const WRAPPERS = new Set([
  'export_statement',
  'decorated_definition',
  'lexical_declaration',
  'variable_declaration',
  'template_declaration',
  'ambient_declaration',
  'const_declaration',
  'var_declaration',
  'type_declaration',
  'declaration',
  'field_declaration',
]);
/** Between a doc comment and its definition: attributes, decorators and annotations. */
const SKIPPABLE = new Set(['decorator', 'attribute_item', 'attribute_list', 'annotation', 'marker_annotation']);
const MAX_DOC_CHARS = 160;

/**
 * The first line of a definition's documentation: the comment right above it (JSDoc, `///`, `#`, `//`),
 * or a Python docstring. Licence headers and commented-out code a blank line away are not its doc.
 */
export function firstDocLine(definition: Node, text: string): string | undefined {
  return docstringOf(definition) ?? commentAbove(definition, text);
}

function commentAbove(definition: Node, text: string): string | undefined {
  let anchor = definition;
  while (anchor.parent && WRAPPERS.has(anchor.parent.type)) anchor = anchor.parent;
  const comments: Node[] = [];
  let below = anchor.startPosition.row;
  for (let sibling = anchor.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
    if (sibling.endPosition.row < below - 1) break; // a blank line apart
    if (SKIPPABLE.has(sibling.type)) {
      below = sibling.startPosition.row;
      continue;
    }
    if (!sibling.type.includes('comment')) break;
    comments.unshift(sibling);
    below = sibling.startPosition.row;
  }
  if (comments.length === 0) return undefined;
  const first = comments[0]!;
  return meaningfulLine(text.slice(first.startIndex, comments.at(-1)!.endIndex));
}

function docstringOf(definition: Node): string | undefined {
  if (definition.type !== 'function_definition' && definition.type !== 'class_definition') return undefined;
  const first = definition.childForFieldName('body')?.firstNamedChild;
  const literal = first?.type === 'expression_statement' ? first.firstNamedChild : undefined;
  if (literal?.type !== 'string') return undefined;
  return meaningfulLine(literal.text.replace(/^[rRuUbB]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, ''));
}

/** The first line with words in it, comment markers, JSDoc tags and Javadoc markup taken off. */
function meaningfulLine(comment: string): string | undefined {
  const xmlDoc = XML_DOC.test(comment);
  for (const raw of comment.split('\n')) {
    // What a parameter or the result is says nothing of the definition: a doc without a summary has none.
    if (xmlDoc && XML_DOC_SECTION.test(raw)) return undefined;
    let line = withoutMarkup(raw.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/[/!]?|#+|--|;+)/, '').replace(/\*\/\s*$/, ''));
    if (xmlDoc) line = withoutXmlDoc(line);
    if (!line || /^@\w+/.test(line) || !/[A-Za-z]{2}/.test(line)) continue;
    return line.length > MAX_DOC_CHARS ? `${line.slice(0, MAX_DOC_CHARS - 1)}…` : line;
  }
  return undefined;
}

/**
 * HTML a doc comment may hold (Javadoc's `<p>`, `<a href="…">`): a known tag name, lower case, in a tag's shape, so
 * that a generic (`Either<A, B>`, `Array<Code>`, `impl<B: Buf>`) is never taken for one.
 */
const HTML_TAG =
  /<\/?(?:a|p|b|i|u|em|strong|code|pre|tt|var|kbd|samp|ul|ol|li|br|hr|dl|dt|dd|blockquote|h[1-6]|table|tr|td|th|sup|sub|span|div|small|big)(?:\s+[\w-]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?)*\s*\/?>/g;
/**
 * C#'s XML doc comments: `<summary>` and its kin wrap the prose, `<see cref="T:Name"/>` and `<paramref name="x"/>`
 * stand for the names they point at. A summary opens on a line of its own, so without this every documented
 * definition in serilog read `<summary>`. Only a comment with such a tag is read so (`Array<item>` elsewhere stays).
 */
const XML_DOC = /<(?:summary|remarks|param|typeparam|returns|inheritdoc|see|seealso|para)\b/;
const XML_DOC_WRAPPER = /<\/?(?:summary|remarks|para|c|value|example|description|term|item|list(?:header)?)(?:\s+[\w-]+="[^"]*")*\s*>/g;
const XML_DOC_REFERENCE = /<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="(?:[A-Z]:)?([^"]*)"\s*\/>/g;
/** `<see cref="X">the text</see>`: the text. */
const XML_DOC_LINK = /<(?:see|seealso)\s+(?:cref|href|langword)="[^"]*"\s*>([^<]*)<\/(?:see|seealso)>/g;
/** The parts of an XML doc comment after its summary, which say what a parameter or the result is (like `@param`). */
const XML_DOC_SECTION = /^\s*(?:\/\/\/|\*)?\s*<(?:param|typeparam|returns|exception|inheritdoc|include|permission|seealso)\b/;

function withoutXmlDoc(line: string): string {
  return line.replace(XML_DOC_LINK, '$1').replace(XML_DOC_REFERENCE, '$1').replace(XML_DOC_WRAPPER, '').replace(/\s+/g, ' ').trim();
}

/** `{@link Type#method(String, Class) label}` and TSDoc's `{@link Type | label}`: the target, then an optional label. */
const LINK = /\{@(?:link|linkplain)\s+([^\s}(|]+(?:\([^)]*\))?)(?:\s*\|?\s*([^}]*))?\}/g;

/**
 * A doc line as a reader sees it: `{@link Gson}` and `{@code T}` are the names they wrap (a label if the link has one),
 * `<a href="…">RFC 8259</a>` its text. A small model reads every character of it before its first word.
 */
function withoutMarkup(line: string): string {
  return line
    .replace(LINK, (_, target: string, label?: string) => label?.trim() || target.replace(/^#/, ''))
    .replace(/\{@(?:code|literal|value)\s*([^}]*)\}/g, '$1')
    .replace(HTML_TAG, '')
    .replace(/\s+/g, ' ')
    .trim();
}
