import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { analyze, formatReport, readingMinutes, sentences, topWords, countWords, words } from '../src';

describe('tokenize', () => {
  it('keeps contractions and hyphenated words whole', () => {
    assert.deepEqual(words("Don't panic: it's well-known."), ["don't", 'panic', "it's", 'well-known']);
  });

  it('splits sentences on end punctuation only', () => {
    assert.deepEqual(sentences('One. Two?! Three'), ['One', 'Two', 'Three']);
    assert.deepEqual(sentences('Version 1.5 is out.'), ['Version 1.5 is out']);
  });
});

describe('frequency', () => {
  it('skips stop words and breaks ties alphabetically', () => {
    const counts = countWords(words('the cache and the queue; a queue, a cache, a log'));
    assert.deepEqual(topWords(counts, 3), [
      { word: 'cache', count: 2 },
      { word: 'queue', count: 2 },
      { word: 'log', count: 1 },
    ]);
  });
});

describe('analyze and formatReport', () => {
  it('reports counts and reading time', () => {
    const stats = analyze('Models read context. Context is the model input.', { topWords: 2 });
    assert.equal(stats.wordCount, 8);
    assert.equal(stats.sentenceCount, 2);
    assert.equal(formatReport(stats), '8 words in 2 sentences (about 1 min to read)\nMost frequent: context (2), input (1)');
  });

  it('rejects a non-positive reading speed', () => {
    assert.throws(() => readingMinutes(10, 0), RangeError);
  });
});
