import type { TextStats } from './analyze';

const number = new Intl.NumberFormat('en-US');

/** Two lines a person can read at a glance; see README.md for an example. */
export function formatReport(stats: TextStats): string {
  const minutes = stats.readingMinutes === 1 ? '1 min' : `${stats.readingMinutes} min`;
  const sentencesLabel = stats.sentenceCount === 1 ? 'sentence' : 'sentences';
  const lines = [`${number.format(stats.wordCount)} words in ${number.format(stats.sentenceCount)} ${sentencesLabel} (about ${minutes} to read)`];
  if (stats.topWords.length > 0) {
    lines.push(`Most frequent: ${stats.topWords.map(({ word, count }) => `${word} (${count})`).join(', ')}`);
  }
  return lines.join('\n');
}
