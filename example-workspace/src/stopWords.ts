/**
 * Words too common to say anything about a text. Kept short on purpose: a longer list hides words
 * like "system" or "data" that are often what a technical text is about.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'from', 'has', 'have', 'he', 'her', 'his',
  'i', 'if', 'in', 'is', 'it', 'its', 'not', 'of', 'on', 'or', 'she', 'so', 'that', 'the', 'their', 'them',
  'there', 'they', 'this', 'to', 'was', 'we', 'were', 'which', 'who', 'will', 'with', 'you', 'your',
]);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
