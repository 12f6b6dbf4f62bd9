/** The two kinds of YAML file CodeWiki helps write. */
export type AuthoringKind = 'prompt' | 'agent';

/**
 * Which kind a file is, from where it lives: `.codewiki/prompts/**` holds action prompts and
 * `.codewiki/agents/**` agent definitions (the built-in `action-prompts/` and `agents/` too).
 */
export function authoringKindOf(file: string): AuthoringKind | undefined {
  const path = file.replace(/\\/g, '/');
  if (!/\.ya?ml$/i.test(path)) return undefined;
  if (/(^|\/)\.codewiki\/agents\//.test(path) || /(^|\/)agents\/[^/]+\.ya?ml$/i.test(path)) return 'agent';
  if (/(^|\/)\.codewiki\/prompts\//.test(path) || /(^|\/)action-prompts\//.test(path)) return 'prompt';
  return undefined;
}
