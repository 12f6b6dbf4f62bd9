export { analyze, type AnalyzeOptions, type TextStats } from './analyze';
export { formatReport } from './format';
export { countWords, topWords, type WordCount } from './frequency';
export { DEFAULT_WORDS_PER_MINUTE, readingMinutes } from './readingTime';
export { isStopWord, STOP_WORDS } from './stopWords';
export { sentences, words } from './tokenize';
