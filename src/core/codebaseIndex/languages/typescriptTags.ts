import { CLASS_LIKE, type TagQuery } from './tagQuery';

/** Shared by TypeScript and TSX; the grammars differ only in JSX. */
const TYPESCRIPT_QUERY = String.raw`
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module
(module name: [(identifier) (nested_identifier) (string)] @name) @definition.module
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(method_signature name: (property_identifier) @name) @definition.method
(abstract_method_signature name: (property_identifier) @name) @definition.method
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)) (#eq? @_require "require"))
`;

export const TYPESCRIPT_TAGS: TagQuery = { grammar: 'typescript', query: TYPESCRIPT_QUERY, methodContainers: CLASS_LIKE };
export const TSX_TAGS: TagQuery = { grammar: 'tsx', query: TYPESCRIPT_QUERY, methodContainers: CLASS_LIKE };

export const JAVASCRIPT_TAGS: TagQuery = {
  grammar: 'javascript',
  methodContainers: CLASS_LIKE,
  query: String.raw`
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(field_definition property: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (expression_statement (assignment_expression left: (member_expression property: (property_identifier) @name) right: [(function_expression) (arrow_function) (class)]) @definition.function))
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)) (#eq? @_require "require"))
`,
};
