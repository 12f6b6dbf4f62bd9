import type { FileFacts, SymbolDef } from '../codeIndexTypes';
import { tagQueryForPath } from '../languages/languageSpecs';
import { languageFromPath } from '../../tools/file/languages';
import { fileHead, looksMinified } from './contentChecks';
import { extractTags } from './extractTags';
import { mentionCounts } from './mentionCounts';
import { outlineTags } from './outlineTags';

/** The markers code generators put at the top of what they write (Go's is a standard: "^// Code generated .* DO NOT EDIT\.$"). */
const GENERATED = /\b(code generated\b.*\bdo not edit|@generated\b|auto-?generated (file|code|by)|this file (is|was) (automatically )?generated)/i;

export interface FileIdentity {
  path: string;
  hash: string;
  size: number;
  mtimeMs: number;
}

/**
 * Everything the index keeps of one file's text: its definitions (tree-sitter where a grammar exists,
 * the regex outline elsewhere), the names it mentions, its imports and its head. A grammar that fails
 * to load or parse degrades to the outline, never to an error: one odd file must not stop a build.
 */
export async function buildFileFacts(identity: FileIdentity, text: string): Promise<FileFacts> {
  const language = languageFromPath(identity.path);
  const base = { ...identity, language, mentions: '', imports: [] as string[], head: '', symbols: [] as SymbolDef[] };
  if (looksMinified(text)) return { ...base, parsedBy: 'none', skipped: 'minified' };
  const head = fileHead(text);
  const generated = GENERATED.test(head) || GENERATED.test(fileHead(text, { keepLicence: true }));
  const facts: FileFacts = { ...base, parsedBy: 'none', mentions: mentionCounts(text), head, ...(generated ? { generated: true } : {}) };
  const tags = tagQueryForPath(identity.path);
  if (tags) {
    try {
      const found = await extractTags(text, tags);
      return { ...facts, parsedBy: 'tree-sitter', symbols: found.symbols, imports: found.imports };
    } catch {
      // fall through to the outline
    }
  }
  const symbols = outlineTags(text, language);
  return symbols.length ? { ...facts, parsedBy: 'outline', symbols } : facts;
}
