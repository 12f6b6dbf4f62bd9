export interface SlashCommand {
  name: string;
  description: string;
  /** Shown after the name in the popup, e.g. `<prompt> name=value…`. */
  usage?: string;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'agent', description: 'Run an action prompt with a form', usage: '[prompt] [name=value …]' },
  { name: 'new', description: 'Start a new conversation' },
  { name: 'history', description: 'Browse, search and reopen past conversations' },
  { name: 'help', description: 'Show what CodeWiki can do' },
];

/** The text after `/` while the user is still typing the command's name; undefined when no popup should show. */
export function slashQuery(text: string): string | undefined {
  const match = /^\/([\w-]*)$/.exec(text);
  return match ? match[1] : undefined;
}

/** Commands whose name starts with the query, then those that merely contain it. */
export function matchCommands(query: string): SlashCommand[] {
  const q = query.toLowerCase();
  const starts = SLASH_COMMANDS.filter((c) => c.name.startsWith(q));
  return [...starts, ...SLASH_COMMANDS.filter((c) => !starts.includes(c) && c.name.includes(q))];
}

/** `/name rest…` → its parts; undefined for ordinary chat text. */
export function parseSlashLine(text: string): { name: string; args: string } | undefined {
  const match = /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1].toLowerCase(), args: (match[2] ?? '').trim() } : undefined;
}

export const HELP_TEXT = [
  '**CodeWiki** answers questions about your workspace and runs action prompts.',
  '',
  ...SLASH_COMMANDS.map((c) => `- \`/${c.name}${c.usage ? ` ${c.usage}` : ''}\`: ${c.description}.`),
  '',
  'Examples: `/agent` opens a searchable list of prompts; `/agent summarize path=src` runs one directly when every required input is given, otherwise it opens the form filled in.',
  '',
  '**Enter** sends, **Shift+Enter** adds a line. While an answer streams, **Stop** keeps what has arrived.',
].join('\n');
