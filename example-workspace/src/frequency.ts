import { isStopWord } from './stopWords';

export interface WordCount {
  word: string;
  count: number;
}

/** Counts every word except stop words and one-letter words. */
export function countWords(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) {
    if (word.length < 2 || isStopWord(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/** The `limit` most frequent words; equal counts are ordered alphabetically so results are stable. */
export function topWords(counts: ReadonlyMap<string, number>, limit = 10): WordCount[] {
  return [...counts]
    .map(([word, count]) => ({ word, count }))
    .sort((a, b) => b.count - a.count || a.word.localeCompare(b.word))
    .slice(0, limit);
}
