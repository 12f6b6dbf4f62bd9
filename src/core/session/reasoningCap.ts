/** History keeps a reasoning model's thinking for the user to read back, up to this much per message. */
export const REASONING_MAX_CHARS = 32 * 1024;

/**
 * The part of `text` that still fits after `kept` characters of thinking: what to append and to
 * post to the webview, so the live view and history agree. Empty once the cap is reached.
 */
export function reasoningThatFits(kept: string | undefined, text: string): string {
  const room = REASONING_MAX_CHARS - (kept?.length ?? 0);
  return room > 0 ? text.slice(0, room) : '';
}
