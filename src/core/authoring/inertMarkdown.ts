/**
 * Text from a prompt file (descriptions, names) shown in a hover or completion: VS Code renders it as Markdown,
 * and an image there is fetched as soon as the hover opens, so a repository could learn who reads its prompts
 * (security.md #5). Escaping the characters of images, links, autolinks and HTML keeps such text inert while
 * emphasis and code spans in our own descriptions still render.
 */
export function inertMarkdown(text: string): string {
  return text.replace(/[\\![\]()<>]/g, '\\$&');
}

/** A name from a prompt file as a code span it cannot close (a backtick would end the span early). */
export function codeSpan(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}
