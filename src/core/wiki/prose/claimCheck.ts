import type { KnownNames } from './knownNames';

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
const URL = /^([a-z][a-z0-9+.-]*:\/\/|www\.)/i;
/** `Node.js`, `Vue.js`: names of things, spelled like files; a file of that name would have been found first. */
const PRODUCT_NAME = /^[A-Z][A-Za-z0-9]*\.js$/;
/** Words a model puts in backticks that are language, not names from the code. */
const LANGUAGE_WORDS = new Set(
  'true false null undefined none nil self this super async await export import default return yield new const let var function class interface type enum struct trait impl fn def func package module public private protected static void int string number boolean bool object any unknown never map list dict set array promise error exception main init'.split(
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
  let inFence = false;
  for (const line of prose.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || /^\s*(```|~~~)/.test(line)) {
      kept.push(line);
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
  return text.split(/(?<=[.!?])(?=\s)/);
}

async function firstFalseClaim(
  sentence: string,
  known: KnownNames,
  lineCount: (path: string) => Promise<number | undefined>,
): Promise<{ name: string; reason: string } | undefined> {
  for (const [, code] of sentence.matchAll(/`+([^`]+)`+/g)) {
    const name = code!.trim();
    const problem = await checkName(name, known, lineCount);
    if (problem) return { name, reason: problem };
  }
  const outsideCode = sentence.replace(/`+[^`]+`+/g, ' ');
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
  if (!IDENTIFIER.test(name)) return undefined;
  const last = name
    .replace(/\(\)$/, '')
    .split(/\.|::|#/)
    .at(-1)!;
  if (LANGUAGE_WORDS.has(last.toLowerCase()) || known.isDefined(last) || known.file(last) || known.folder(last)) return undefined;
  return 'no definition of this name exists';
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
