/**
 * How a language's definitions, scopes and imports are found: one tree-sitter query per grammar, in the
 * capture convention of tree-sitter's own `tags.scm` files (and Aider's repo map), narrowed to what the
 * index keeps:
 *
 *   @definition.KIND  the whole definition node (KIND is a SymbolKind), with
 *   @name             its name node in the same pattern;
 *   @scope            a node that encloses definitions without being one (a Rust `impl`), with @name;
 *   @import           a module specifier (a string or a dotted name) the file imports.
 *
 * References are not queried: the index counts the identifiers a file mentions with one regular
 * expression over its text (see mentionCounts.ts), which costs far less than a second query and also
 * sees names in comments, which relate files as well.
 */
export interface TagQuery {
  /** The grammar's wasm file in @vscode/tree-sitter-wasm, without `tree-sitter-` and `.wasm`. */
  grammar: string;
  query: string;
  /** A function definition inside one of these kinds is a method. */
  methodContainers?: readonly string[];
}

export const CLASS_LIKE = ['class', 'interface', 'struct', 'trait', 'enum', 'scope'] as const;
