/** `/agent <id> name=value name="two words" bare` split into its parts. */
export interface AgentCommand {
  promptId?: string;
  named: Record<string, string>;
  positional: string[];
}

export function parseAgentCommand(args: string): AgentCommand {
  const [promptId, ...rest] = tokenize(args);
  const named: Record<string, string> = {};
  const positional: string[] = [];
  for (const token of rest) {
    const match = /^([A-Za-z_][\w.-]*)=([\s\S]*)$/.exec(token);
    if (match) named[match[1]] = match[2];
    else positional.push(token);
  }
  return { promptId, named, positional };
}

/**
 * Shell-like words: whitespace separates, "double" and 'single' quotes group (also mid-word, as in
 * name="a b"), and a backslash escapes the next character inside double quotes or outside quotes.
 */
export function tokenize(input: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < input.length) current += input[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inToken = true;
    } else if (ch === '\\' && i + 1 < input.length) {
      current += input[++i];
      inToken = true;
    } else if (/\s/.test(ch)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
    } else {
      current += ch;
      inToken = true;
    }
  }
  if (inToken) tokens.push(current);
  return tokens;
}
