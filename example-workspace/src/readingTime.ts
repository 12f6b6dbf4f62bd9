/** Silent reading speed of adults for non-fiction, in words per minute (Brysbaert, 2019). */
export const DEFAULT_WORDS_PER_MINUTE = 238;

/** Whole minutes, rounded up, and never 0 for a non-empty text. */
export function readingMinutes(wordCount: number, wordsPerMinute = DEFAULT_WORDS_PER_MINUTE): number {
  if (wordsPerMinute <= 0) throw new RangeError(`wordsPerMinute must be positive, got ${wordsPerMinute}`);
  return wordCount === 0 ? 0 : Math.ceil(wordCount / wordsPerMinute);
}
