import { estimateTokens } from '../../llm/tokenEstimate';
import { readLineRange } from '../../workspace/readLineRange';
import type { Workspace } from '../../workspace/workspace';
import type { WikiModule, WikiStructure } from '../wikiTypes';
import { plainProse } from './plainProse';

/** What the model sees of a module: its structure and a few snippets, never the whole module (a small model pays ~30 prompt tokens a second). */
const MODULE_CONTEXT_CHARS = 2_400;
const SNIPPETS = 2;
const SNIPPET_LINES = 10;
const SNIPPET_CHARS = 480;
const OVERVIEW_CONTEXT_CHARS = 3_200;
const OVERVIEW_MODULES = 24;

export interface ProseContext {
  text: string;
  tokens: number;
}

/** A module's structure as plain lines, then its best definitions' first lines as fenced code (data, not instructions). */
export async function moduleContext(module: WikiModule, workspace: Workspace): Promise<ProseContext> {
  const lines = [`Module: ${module.id === '.' ? '(top level)' : module.id} (${module.files.length} files; ${module.languages.join(', ')})`];
  if (module.alsoFolders.length) lines.push(`Also covers: ${module.alsoFolders.join(', ')}`);
  lines.push('Key definitions:');
  for (const definition of module.definitions) {
    const name = definition.container ? `${definition.container}.${definition.name}` : definition.name;
    lines.push(`- ${definition.kind} ${name} (${definition.path}:${definition.line})${definition.doc ? `: ${definition.doc}` : ''}`);
  }
  if (module.entryPoints.length) lines.push(`Entry points: ${module.entryPoints.map((entry) => entry.path).join(', ')}`);
  if (module.dependsOn.length)
    lines.push(
      `Depends on: ${module.dependsOn
        .slice(0, 6)
        .map((link) => link.module)
        .join(', ')}`,
    );
  if (module.usedBy.length)
    lines.push(
      `Used by: ${module.usedBy
        .slice(0, 6)
        .map((link) => link.module)
        .join(', ')}`,
    );
  let text = lines.join('\n');
  const seenFiles = new Set<string>();
  for (const definition of module.definitions) {
    if (seenFiles.size === SNIPPETS || text.length > MODULE_CONTEXT_CHARS) break;
    if (seenFiles.has(definition.path)) continue;
    seenFiles.add(definition.path);
    const snippet = await readSnippet(workspace, definition.path, definition.line);
    if (!snippet) continue;
    const block = `\n\n${definition.path}:${definition.line}\n\`\`\`\n${snippet}\n\`\`\``;
    if (text.length + block.length > MODULE_CONTEXT_CHARS) break;
    text += block;
  }
  return { text, tokens: estimateTokens(text) };
}

/** The modules, most used first, each with its key names and the first sentence of its overview when it has one. */
export function overviewContext(structure: WikiStructure, firstSentences: ReadonlyMap<string, string>): ProseContext {
  const ranked = [...structure.modules].sort((a, b) => b.rank - a.rank || a.id.localeCompare(b.id)).slice(0, OVERVIEW_MODULES);
  const lines = [`${structure.modules.length} modules, ${structure.codeFiles} code files. Modules, most used first:`];
  for (const module of ranked) {
    const names = module.definitions
      .slice(0, 3)
      .map((definition) => definition.name)
      .join(', ');
    const summary = firstSentences.get(module.id);
    const line = `- ${module.id === '.' ? '(top level)' : module.id} (${module.files.length} files): ${names}${summary ? `. ${summary}` : ''}`;
    if (lines.join('\n').length + line.length > OVERVIEW_CONTEXT_CHARS) break;
    lines.push(line);
  }
  const top = new Set(ranked.map((module) => module.id));
  const edges = structure.links.filter(([from, to]) => top.has(from) && top.has(to)).sort((a, b) => b[2] - a[2]);
  if (edges.length)
    lines.push(
      `Dependencies: ${edges
        .slice(0, 16)
        .map(([from, to]) => `${from} → ${to}`)
        .join('; ')}`,
    );
  const text = lines.join('\n');
  return { text, tokens: estimateTokens(text) };
}

/** The first sentence of a page's prose, without its attribution line; undefined for the placeholder. */
export function firstSentence(prose: string | undefined): string | undefined {
  // A sentence may run over line breaks: blank lines go before the links are reduced, the rest are joined with spaces.
  const plain = plainProse(
    prose
      ?.split('\n')
      .filter((line) => line.trim())
      .join('\n'),
  )?.replace(/\n/g, ' ');
  return plain === undefined ? undefined : /^[^.!?]{1,240}[.!?]/.exec(plain)?.[0];
}

async function readSnippet(workspace: Workspace, path: string, line: number): Promise<string | undefined> {
  try {
    // resolve, not locate: real paths and the secret-file policy, as every file tool reads.
    const { absolute } = await workspace.resolve(path);
    const range = await readLineRange(absolute, line, line + SNIPPET_LINES - 1, SNIPPET_CHARS);
    if (range.binary || !range.text.trim()) return undefined;
    return range.text.replace(/```/g, "'''").trimEnd();
  } catch {
    return undefined;
  }
}
