import { CLASS_LIKE, type TagQuery } from './tagQuery';

export const PYTHON_TAGS: TagQuery = {
  grammar: 'python',
  methodContainers: ['class'],
  query: String.raw`
(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: [(dotted_name) (relative_import)] @import)
`,
};

export const RUBY_TAGS: TagQuery = {
  grammar: 'ruby',
  methodContainers: ['class', 'module'],
  query: String.raw`
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module
(program (assignment left: (constant) @name) @definition.constant)
(call method: (identifier) @_require arguments: (argument_list . (string (string_content) @import)) (#match? @_require "^require(_relative)?$"))
`,
};

export const PHP_TAGS: TagQuery = {
  grammar: 'php',
  methodContainers: CLASS_LIKE,
  query: String.raw`
(function_definition name: (name) @name) @definition.function
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(method_declaration name: (name) @name) @definition.method
(namespace_definition name: (namespace_name) @name) @definition.module
(const_declaration (const_element (name) @name) @definition.constant)
(namespace_use_clause [(qualified_name) (name)] @import)
`,
};

export const BASH_TAGS: TagQuery = {
  grammar: 'bash',
  query: String.raw`
(function_definition name: (word) @name) @definition.function
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))
`,
};

export const POWERSHELL_TAGS: TagQuery = {
  grammar: 'powershell',
  methodContainers: ['class'],
  query: String.raw`
(function_statement (function_name) @name) @definition.function
(class_statement . (simple_name) @name) @definition.class
(class_method_definition (simple_name) @name) @definition.method
(enum_statement . (simple_name) @name) @definition.enum
`,
};
