/** Identifier-looking words of at least this length count as mentions; shorter ones (`i`, `id`, `ok`) relate everything to everything. */
const MIN_LENGTH = 3;
/** A generated file can mention 100,000 names; the first ones are enough to place it in the graph. */
const MAX_DISTINCT = 3_000;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** Keywords of the common languages: never a definition elsewhere, and a third of all words in code. */
const KEYWORDS = new Set(
  (
    'abstract and async await break case catch class const continue def default defer delete elif else enum export extends false final ' +
    'finally for from func function go impl import in interface let match mut new nil none None null package pass private protected pub ' +
    'public raise return self Self static struct super switch this throw true True False try type typeof undefined use var void while with yield'
  ).split(' '),
);

/**
 * Every identifier-looking word of a file, with how often it appears, in FileFacts' compact form:
 * `name` or `name*count`, space-separated. One regular expression over the text, whatever the language:
 * the file graph needs which names a file uses, not where (Aider's repo map also falls back to plain
 * tokens for languages without reference queries).
 */
export function mentionCounts(text: string): string {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (word.length < MIN_LENGTH || KEYWORDS.has(word)) continue;
    const count = counts.get(word);
    if (count !== undefined) counts.set(word, count + 1);
    else if (counts.size < MAX_DISTINCT) counts.set(word, 1);
  }
  let out = '';
  for (const [word, count] of counts) out += `${out ? ' ' : ''}${word}${count > 1 ? `*${count}` : ''}`;
  return out;
}

/** The inverse of mentionCounts, as [name, count] pairs. */
export function* eachMention(mentions: string): Generator<[string, number]> {
  if (!mentions) return;
  for (const entry of mentions.split(' ')) {
    const star = entry.indexOf('*');
    if (star < 0) yield [entry, 1];
    else yield [entry.slice(0, star), Number(entry.slice(star + 1))];
  }
}
