import type { ChatMode, PromptSummary } from '../../src/shared/protocol';

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

/** What each mode can see, in the words the empty state and `/help` both use: only what is true. */
export const MODE_SUMMARY: Record<ChatMode, string> = {
  agent: '**Agent** mode: the model searches and reads your workspace files itself, and asks before it changes a file or runs a command.',
  chat: '**Chat** mode: a plain answer from the conversation and the files you attach with `#file:`; it does not read your workspace by itself.',
};

/**
 * `/help` for the current mode. The example is built from a prompt that exists (`example`), so it
 * always names a real prompt and a real input; without one it names the built-in shape generically.
 */
export function helpText(mode: ChatMode, example?: PromptSummary): string {
  const other =
    mode === 'agent' ? 'Switch to **Chat** below the input for a plain answer.' : 'Switch to **Agent** below the input to let it read the workspace.';
  return [
    MODE_SUMMARY[mode],
    other,
    '',
    ...SLASH_COMMANDS.map((c) => `- \`/${c.name}${c.usage ? ` ${c.usage}` : ''}\`: ${c.description}.`),
    '',
    `Example: ${agentExample(example)}`,
    '',
    '**Enter** sends, **Shift+Enter** adds a line, **↑** in an empty input recalls your last message. While an answer streams, **Stop** keeps what has arrived.',
  ].join('\n');
}

function agentExample(prompt: PromptSummary | undefined): string {
  if (!prompt) return '`/agent` opens a searchable list of action prompts and a form for the one you pick.';
  const field = prompt.inputs.find((f) => f.required) ?? prompt.inputs[0];
  const value = field
    ? field.type === 'path'
      ? 'src'
      : field.type === 'number'
        ? '3'
        : field.type === 'boolean'
          ? 'true'
          : field.options?.length
            ? String(field.options[0])
            : 'value'
    : '';
  const command = `/agent ${prompt.id}${field ? ` ${field.name}=${value}` : ''}`;
  return `\`/agent\` opens a searchable list of prompts; \`${command}\` runs **${prompt.title}** directly when every required input is given, otherwise it opens the form filled in.`;
}
