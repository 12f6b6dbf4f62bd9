/**
 * Characters an editor does not draw but a model reads. Which are errors and which are warnings
 * is a judgement about harm versus legitimate use:
 * - tag characters spell out ASCII that is completely invisible ("ASCII smuggling"); no prompt
 *   needs them (their one use, flag emoji subdivisions, does not belong in a prompt) → error;
 * - bidirectional embeddings, overrides and isolates make the editor show text in a different
 *   order than it is read ("Trojan Source", CVE-2021-42574) → error;
 * - zero-width characters and the direction marks (U+200E, U+200F, U+061C) hide nothing by
 *   themselves and have real uses (joining in Persian and Indic scripts, emoji sequences,
 *   right-to-left text), but they can split words a reviewer searches for → warning.
 */
export type InvisibleKind = 'tag' | 'bidi-control' | 'bidi-mark' | 'zero-width';

const NAMES: Record<number, string> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

const TAG_BASE = 0xe0000;

/** One invisible character; the byte-order mark the parser drops from the very start of a file is never seen. */
export const INVISIBLE_CHARACTER = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

export function invisibleKind(codePoint: number): InvisibleKind {
  if (codePoint >= TAG_BASE) return 'tag';
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069)) return 'bidi-control';
  if (codePoint === 0x061c || codePoint === 0x200e || codePoint === 0x200f) return 'bidi-mark';
  return 'zero-width';
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE". */
export function describeCharacter(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} ${NAMES[codePoint] ?? tagName(codePoint)}`;
}

/** The ASCII character a tag character mirrors, or undefined for the few that mirror none. */
export function tagText(codePoint: number): string | undefined {
  const ascii = codePoint - TAG_BASE;
  return ascii >= 0x20 && ascii <= 0x7e ? String.fromCharCode(ascii) : undefined;
}

/** Unicode names the tag block after the ASCII it mirrors: U+E0041 is TAG LATIN CAPITAL LETTER A. */
function tagName(codePoint: number): string {
  if (codePoint === 0xe0001) return 'LANGUAGE TAG';
  if (codePoint === 0xe007f) return 'CANCEL TAG';
  const ch = tagText(codePoint);
  if (ch === undefined) return 'TAG (unassigned)';
  if (/[A-Z]/.test(ch)) return `TAG LATIN CAPITAL LETTER ${ch}`;
  if (/[a-z]/.test(ch)) return `TAG LATIN SMALL LETTER ${ch.toUpperCase()}`;
  if (/[0-9]/.test(ch)) return `TAG DIGIT ${DIGITS[Number(ch)]}`;
  return `TAG ${ASCII_PUNCTUATION[ch]}`;
}

const DIGITS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];

const ASCII_PUNCTUATION: Record<string, string> = {
  ' ': 'SPACE',
  '!': 'EXCLAMATION MARK',
  '"': 'QUOTATION MARK',
  '#': 'NUMBER SIGN',
  $: 'DOLLAR SIGN',
  '%': 'PERCENT SIGN',
  '&': 'AMPERSAND',
  "'": 'APOSTROPHE',
  '(': 'LEFT PARENTHESIS',
  ')': 'RIGHT PARENTHESIS',
  '*': 'ASTERISK',
  '+': 'PLUS SIGN',
  ',': 'COMMA',
  '-': 'HYPHEN-MINUS',
  '.': 'FULL STOP',
  '/': 'SOLIDUS',
  ':': 'COLON',
  ';': 'SEMICOLON',
  '<': 'LESS-THAN SIGN',
  '=': 'EQUALS SIGN',
  '>': 'GREATER-THAN SIGN',
  '?': 'QUESTION MARK',
  '@': 'COMMERCIAL AT',
  '[': 'LEFT SQUARE BRACKET',
  '\\': 'REVERSE SOLIDUS',
  ']': 'RIGHT SQUARE BRACKET',
  '^': 'CIRCUMFLEX ACCENT',
  _: 'LOW LINE',
  '`': 'GRAVE ACCENT',
  '{': 'LEFT CURLY BRACKET',
  '|': 'VERTICAL LINE',
  '}': 'RIGHT CURLY BRACKET',
  '~': 'TILDE',
};
