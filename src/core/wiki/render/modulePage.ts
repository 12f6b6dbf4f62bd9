import type { KeyDefinition, ModuleLink, WikiModule, WikiStructure } from '../wikiTypes';
import { metaLine, notesSection, PROSE_END, PROSE_START, type PageMeta } from '../pages/pageSections';
import { INDEX_PAGE } from '../structure/pagePaths';
import { clip, codeLink, inertText, inlineCode } from './markdownText';
import { mermaidGraph } from './mermaidDiagram';
import type { PageLinks } from './pageLinks';

const MAX_FILES_LISTED = 40;
const MAX_LINKS_LISTED = 8;
const MAX_SIGNATURE = 140;
const MAX_DOC = 200;
const DIAGRAM_NEIGHBOURS = 6;

export const NO_PROSE_YET = '_No overview yet: **CodeWiki: Generate Wiki** (or `codewiki wiki`) writes one with the configured model._';

export interface PageText {
  meta: PageMeta;
  /** The prose section's content (the model's text and its attribution), or undefined for the placeholder. */
  prose?: string;
  notes?: string;
}

/** A module's page: what it is for (prose), then everything the index knows, every name linked to its line. */
export function modulePage(module: WikiModule, structure: WikiStructure, links: PageLinks, text: PageText): string {
  const pageOf = new Map(structure.modules.map((other) => [other.id, other.page]));
  const out: string[] = [metaLine(text.meta), `# ${inlineCode(module.id === '.' ? '(top level)' : module.id)}`, ''];
  const facts = [`${module.files.length} file${module.files.length === 1 ? '' : 's'}`, module.languages.join(', ')];
  if (module.alsoFolders.length) facts.push(`also covers ${module.alsoFolders.map(inlineCode).join(', ')}`);
  out.push(`${facts.join(' · ')} · [all modules](${links.page(INDEX_PAGE)})`, '');
  out.push('## Overview', '', PROSE_START, text.prose ?? NO_PROSE_YET, PROSE_END, '');
  if (module.definitions.length) out.push('## Key definitions', '', ...module.definitions.flatMap((definition) => definitionItem(definition, links)), '');
  if (module.entryPoints.length)
    out.push('## Entry points', '', ...module.entryPoints.map((entry) => `- ${codeLink(entry.path, links.code(entry.path))}: ${inertText(entry.reason)}`), '');
  for (const [title, list] of [
    ['Depends on', module.dependsOn],
    ['Used by', module.usedBy],
  ] as const) {
    if (list.length) out.push(`## ${title}`, '', ...list.slice(0, MAX_LINKS_LISTED).map((link) => linkItem(link, pageOf, links)), '');
  }
  if (module.dependsOn.length || module.usedBy.length) out.push('## Diagram', '', moduleDiagram(module), '');
  out.push('## Files', '', ...module.files.slice(0, MAX_FILES_LISTED).map((path) => `- ${codeLink(path, links.code(path))}`));
  if (module.files.length > MAX_FILES_LISTED) out.push(`- … and ${module.files.length - MAX_FILES_LISTED} more`);
  out.push('', '## Notes', '', notesSection(text.notes), '');
  return out.join('\n');
}

function definitionItem(definition: KeyDefinition, links: PageLinks): string[] {
  const name = definition.container ? `${definition.container}.${definition.name}` : definition.name;
  const used = definition.uses ? `, used in ${definition.uses} other file${definition.uses === 1 ? '' : 's'}` : '';
  const doc = definition.doc ? `: ${inertText(clip(definition.doc, MAX_DOC))}` : '';
  return [
    `- ${codeLink(name, links.code(definition.path, definition.line))} ${definition.kind}${used}${doc}`,
    `  ${inlineCode(clip(definition.signature, MAX_SIGNATURE))}`,
  ];
}

function linkItem(link: ModuleLink, pageOf: ReadonlyMap<string, string>, links: PageLinks): string {
  const page = pageOf.get(link.module);
  const name = inlineCode(link.module === '.' ? '(top level)' : link.module);
  const target = page ? `[${name}](${links.page(page)})` : name;
  return `- ${target}: ${link.files.map((path) => codeLink(path.split('/').pop()!, links.code(path))).join(', ')}`;
}

/** The module, what it depends on and what depends on it: a diagram small enough to read. */
function moduleDiagram(module: WikiModule): string {
  const near = [...module.dependsOn.slice(0, DIAGRAM_NEIGHBOURS), ...module.usedBy.slice(0, DIAGRAM_NEIGHBOURS)];
  const nodes = [{ id: module.id, focus: true }, ...[...new Set(near.map((link) => link.module))].map((id) => ({ id }))];
  const edges: Array<[string, string, number]> = [
    ...module.dependsOn.slice(0, DIAGRAM_NEIGHBOURS).map((link): [string, string, number] => [module.id, link.module, link.weight]),
    ...module.usedBy.slice(0, DIAGRAM_NEIGHBOURS).map((link): [string, string, number] => [link.module, module.id, link.weight]),
  ];
  return mermaidGraph(nodes, edges);
}
