import { countWords, topWords, type WordCount } from './frequency';
import { readingMinutes } from './readingTime';
import { sentences, words } from './tokenize';

export interface TextStats {
  wordCount: number;
  sentenceCount: number;
  averageSentenceLength: number;
  readingMinutes: number;
  topWords: WordCount[];
}

export interface AnalyzeOptions {
  topWords?: number;
  wordsPerMinute?: number;
}

export function analyze(text: string, options: AnalyzeOptions = {}): TextStats {
  const allWords = words(text);
  const sentenceCount = sentences(text).length;
  return {
    wordCount: allWords.length,
    sentenceCount,
    averageSentenceLength: sentenceCount === 0 ? 0 : allWords.length / sentenceCount,
    readingMinutes: readingMinutes(allWords.length, options.wordsPerMinute),
    topWords: topWords(countWords(allWords), options.topWords ?? 5),
  };
}
