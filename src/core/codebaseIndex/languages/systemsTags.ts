import { CLASS_LIKE, type TagQuery } from './tagQuery';

export const GO_TAGS: TagQuery = {
  grammar: 'go',
  methodContainers: ['interface'],
  // A type_spec matches two patterns when it is a struct or an interface; the index keeps the first kind found for a name and line.
  query: String.raw`
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name) @definition.method
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(import_spec path: (interpreted_string_literal) @import)
`,
};

export const RUST_TAGS: TagQuery = {
  grammar: 'rust',
  methodContainers: CLASS_LIKE,
  query: String.raw`
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(impl_item type: [(type_identifier) (generic_type type: (type_identifier)) (scoped_type_identifier name: (type_identifier))] @name) @scope
(use_declaration argument: (_) @import)
(mod_item name: (identifier) @import !body)
`,
};

/**
 * C and C++ (C++'s grammar parses C). A prototype is a declaration, not the definition a where-is question asks for
 * (`UV_EXTERN int uv_run(…);` in libuv's uv.h, whose bodies are in src/unix/core.c and src/win/core.c). An include
 * guard (`#define UV_H`) is never what anyone looks for; a flag without a value (`#define HAVE_DIRENT_TYPES`) may be.
 */
export const CPP_TAGS: TagQuery = {
  grammar: 'cpp',
  methodContainers: ['class', 'struct'],
  query: String.raw`
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @definition.function
(declaration declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name)) @declaration.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @declaration.function
(declaration declarator: (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @declaration.function
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @declaration.method
(field_declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))) @declaration.method
(field_declaration declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name))) @declaration.method
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
(preproc_def name: (identifier) @name value: (_)) @definition.macro
((preproc_def name: (identifier) @name !value) @definition.macro (#not-match? @name "^_*[A-Za-z0-9_]*_(H|HPP|HXX|HH|INCLUDED)_*$"))
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_include path: [(string_literal) (system_lib_string)] @import)
`,
};

export const JAVA_TAGS: TagQuery = {
  grammar: 'java',
  methodContainers: CLASS_LIKE,
  query: String.raw`
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(import_declaration [(scoped_identifier) (identifier)] @import)
`,
};

export const CSHARP_TAGS: TagQuery = {
  grammar: 'c-sharp',
  methodContainers: CLASS_LIKE,
  query: String.raw`
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.field
(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module
(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.module
(using_directive [(identifier) (qualified_name)] @import)
`,
};
