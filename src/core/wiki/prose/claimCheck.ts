import type { KnownNames } from './knownNames';
import { CODE_SPAN, markdownLines } from './markdownLines';

/** A sentence the trust check took out, and the name in it that does not exist. */
export interface RemovedClaim {
  sentence: string;
  name: string;
  reason: string;
}

const FILE_EXTENSION = /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|swift|scala|vue|svelte|json|ya?ml|toml|md|sh|sql|proto)$/i;
const BARE_PATH =
  /(?<![\w/.`-])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z]{1,5}|[\w-]+\.(?:ts|tsx|js|jsx|mjs|py|go|rs|java|kt|cc|cpp|cs|rb|php|swift))(?::(\d+))?(?![\w/])/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?$/;
/** A URL is not a name from the code (safeProse made it inline code so it is no link). */
const URL = /^([a-z][a-z0-9+.-]*:\/\/|\/\/|www\.)/i;
/** `Node.js`, `Vue.js`: names of things, spelled like files; a file of that name would have been found first. */
const PRODUCT_NAME = /^[A-Z][A-Za-z0-9]*\.js$/;
/** Words a model puts in backticks that are language, not names from the code. */
const LANGUAGE_WORDS = new Set(
  'true false null undefined none nil self this super async await export import default return yield new const let var function class interface type enum struct trait impl fn def func package module public private protected static void int string number boolean bool object any unknown never map list dict set array promise error exception main init typeof instanceof keyof readonly extends implements abstract override lambda raise except nullptr auto go defer chan select switch case'.split(
    ' ',
  ),
);

/**
 * The trust check for a model's prose: every sentence that names a file, folder or definition that does
 * not exist at this commit (or a line past a file's end) is removed and reported. Only names the model
 * marks as code or spells as paths are checked; ordinary words are left alone.
 */
export async function checkClaims(
  prose: string,
  known: KnownNames,
  lineCount: (path: string) => Promise<number | undefined>,
): Promise<{ text: string; removed: RemovedClaim[] }> {
  const removed: RemovedClaim[] = [];
  const kept: string[] = [];
  for (const { text: line, fenced, opens } of markdownLines(prose)) {
    // An overview is prose (the prompt asks for paragraphs), and the names in a code block cannot be told from
    // its local words to be checked: the block goes, counted once. The page's definitions show the real code.
    if (fenced) {
      if (opens) removed.push({ sentence: line.trim(), name: line.trim(), reason: 'a code block: an overview keeps prose only' });
      continue;
    }
    const marker = /^\s*(?:[-*+]|\d+[.)]|>|#{1,6})?\s*/.exec(line)![0];
    const sentences = splitSentences(line.slice(marker.length));
    const good: string[] = [];
    for (const sentence of sentences) {
      const problem = await firstFalseClaim(sentence, known, lineCount);
      if (problem) removed.push({ sentence: sentence.trim(), ...problem });
      else good.push(sentence);
    }
    // A list item or paragraph that lost every sentence goes entirely, marker and all.
    if (sentences.length > 0 && good.length === 0) continue;
    kept.push(`${marker}${good.join('').trim()}`);
  }
  return {
    text: kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    removed,
  };
}

/** Sentences, each but the first with the space before it, so joining the kept ones restores the line. */
function splitSentences(text: string): string[] {
  if (text.trim() === '') return [];
  // Not after "e.g.", "i.e.", "etc.", "vs.": those end a word, not a sentence.
  return text.split(/(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc|vs|cf)\.)(?=\s)/i);
}

async function firstFalseClaim(
  sentence: string,
  known: KnownNames,
  lineCount: (path: string) => Promise<number | undefined>,
): Promise<{ name: string; reason: string } | undefined> {
  for (const [, , code] of sentence.matchAll(CODE_SPAN)) {
    const name = code!.trim();
    const problem = await checkName(name, known, lineCount);
    if (problem) return { name, reason: problem };
  }
  const outsideCode = sentence.replace(CODE_SPAN, ' ');
  for (const match of outsideCode.matchAll(BARE_PATH)) {
    const problem = await checkPath(match[1]!, match[2] ? Number(match[2]) : undefined, known, lineCount);
    if (problem) return { name: match[0], reason: problem };
  }
  return undefined;
}

async function checkName(name: string, known: KnownNames, lineCount: (path: string) => Promise<number | undefined>): Promise<string | undefined> {
  const withLine = /^(.+?)(?::(\d+)|#L(\d+))$/.exec(name);
  const path = withLine ? withLine[1]! : name;
  const line = withLine ? Number(withLine[2] ?? withLine[3]) : undefined;
  if (URL.test(path)) return undefined;
  if (path.includes('/') || FILE_EXTENSION.test(path)) {
    // `node dist/cli.js` is a command, not a claim; `src/made up.ts` is a path with a space in it.
    if (/\s/.test(path) && !(path.split(/\s/)[0]!.includes('/') && FILE_EXTENSION.test(path))) return undefined;
    return checkPath(path, line, known, lineCount);
  }
  if (!IDENTIFIER.test(path)) return undefined;
  const segments = path.replace(/\(\)$/, '').split(/\.|::|#/);
  const isKnown = (segment: string) => LANGUAGE_WORDS.has(segment.toLowerCase()) || known.isDefined(segment) || !!known.file(segment) || known.folder(segment);
  // `fs.readFile`, `React.useState`: a member of something this workspace does not define is outside its code,
  // and not a claim the index can check; `Engine.run` is one (its owner is ours, so its member must be too).
  if (segments.length > 1 && !isKnown(segments[0]!)) return undefined;
  return isKnown(segments.at(-1)!) ? undefined : 'no definition of this name exists';
}

async function checkPath(
  path: string,
  line: number | undefined,
  known: KnownNames,
  lineCount: (path: string) => Promise<number | undefined>,
): Promise<string | undefined> {
  const file = known.file(path);
  if (!file) return known.folder(path) || PRODUCT_NAME.test(path) ? undefined : 'no such file or folder';
  if (line !== undefined) {
    const lines = await lineCount(file);
    if (lines !== undefined && (line < 1 || line > lines)) return `line ${line} is past the end of ${file} (${lines} lines)`;
  }
  return undefined;
}
