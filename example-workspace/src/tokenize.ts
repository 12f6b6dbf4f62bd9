/** Letters (any script), digits and inner apostrophes or hyphens: "don't" and "well-known" stay one word. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Sentence ends: ., ! or ? (repeated or not) followed by whitespace or the end of the text. */
const SENTENCE_END = /[.!?]+(?=\s|$)/u;

/** Lower-cased words in order of appearance. */
export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => word.toLowerCase().replace('’', "'"));
}

/** Non-empty sentences, trimmed. A text without end punctuation is one sentence. */
export function sentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter((sentence) => words(sentence).length > 0);
}
