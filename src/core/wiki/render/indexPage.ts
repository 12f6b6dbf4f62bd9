import type { WikiStructure } from '../wikiTypes';
import { metaLine, notesSection, PROSE_END, PROSE_START } from '../pages/pageSections';
import { codeLink, inertText, inlineCode } from './markdownText';
import { mermaidGraph } from './mermaidDiagram';
import { NO_PROSE_YET, type PageText } from './modulePage';
import type { PageLinks } from './pageLinks';

/** Modules drawn in the architecture diagram: the most used ones; more would not be readable. */
const DIAGRAM_MODULES = 12;
const KEY_NAMES = 3;

/** The wiki's front page: the overview, the architecture diagram and every module with its key names. */
export function indexPage(title: string, structure: WikiStructure, links: PageLinks, text: PageText): string {
  const out: string[] = [metaLine(text.meta), `# ${inertText(title)}`, ''];
  out.push(`${plural(structure.modules.length, 'module')} · ${plural(structure.codeFiles, 'code file')} · structure from the CodeWiki code index`, '');
  out.push('## Overview', '', PROSE_START, text.prose ?? NO_PROSE_YET, PROSE_END, '');
  const ranked = [...structure.modules].sort((a, b) => b.rank - a.rank || a.id.localeCompare(b.id));
  if (structure.links.length) {
    const shown = ranked.slice(0, DIAGRAM_MODULES).map((module) => ({ id: module.id }));
    out.push('## Architecture', '', mermaidGraph(shown, structure.links), '');
  }
  out.push('## Modules', '');
  for (const module of ranked) {
    const names = module.definitions.slice(0, KEY_NAMES).map((definition) => codeLink(definition.name, links.code(definition.path, definition.line)));
    const label = inlineCode(module.id === '.' ? '(top level)' : module.id);
    out.push(
      `- [${label}](${links.page(module.page)}): ${module.files.length} file${module.files.length === 1 ? '' : 's'}${names.length ? `; ${names.join(', ')}` : ''}`,
    );
  }
  out.push('', '## Notes', '', notesSection(text.notes), '');
  return out.join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
