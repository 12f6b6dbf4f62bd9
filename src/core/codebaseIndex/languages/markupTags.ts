import type { TagQuery } from './tagQuery';

/** Style sheets: the class and id selectors, keyframes and custom properties other files name. */
export const CSS_TAGS: TagQuery = {
  grammar: 'css',
  query: String.raw`
(class_selector (class_name) @name) @definition.selector
(id_selector (id_name) @name) @definition.selector
(keyframes_statement (keyframes_name) @name) @definition.selector
(declaration (property_name) @name (#match? @name "^--")) @definition.variable
(import_statement (string_value) @import)
`,
};

export const INI_TAGS: TagQuery = {
  grammar: 'ini',
  query: String.raw`
(section (section_name (text) @name)) @definition.section
`,
};
