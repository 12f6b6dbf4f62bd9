/**
 * A conservative token estimate without a tokenizer download (LangChain's tiktoken loader
 * fetches its ranks over the network, which we cannot rely on). English and code average
 * about four characters per token; CJK and other non-ASCII text is closer to one token per
 * character, so counting those as one errs towards staying inside the budget.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** The longest prefix of `text`, cut at a line break where possible, that fits `tokens`. */
export function prefixWithinTokens(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (estimateTokens(text.slice(0, mid)) <= tokens) low = mid;
    else high = mid - 1;
  }
  const cut = text.lastIndexOf('\n', low);
  return text.slice(0, cut > low * 0.8 ? cut : low);
}
