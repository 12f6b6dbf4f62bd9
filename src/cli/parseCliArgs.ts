import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cliErrors';

type ArgsConfig = Omit<ParseArgsConfig, 'args'>;

/**
 * `parseArgs` with its errors in the CLI's own words. Node's messages are written for
 * programmers ("To specify a positional argument starting with a '-', place it at the end of the
 * command after '--'…"); a user needs the option that was wrong and where to read the usage.
 */
export function parseCliArgs<T extends ArgsConfig>(command: string, argv: string[], config: T): ReturnType<typeof parseArgs<T & { args: string[] }>> {
  try {
    return parseArgs({ ...config, args: argv } as T & { args: string[] });
  } catch (error) {
    const message = describeParseError(error);
    if (message === undefined) throw error;
    throw new CliError(`${message}; see "codewiki ${command} --help"`);
  }
}

/** undefined for an error that is not a parser error. Exported for `main`, which words `ask`'s errors the same way. */
export function describeParseError(error: unknown): string | undefined {
  const { code, message } = error as { code?: string; message?: string };
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_') || typeof message !== 'string') return undefined;
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${JSON.stringify(quoted)}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      // "Option '-i, --input <value>' argument missing" / "Option '--dry-run' does not take an argument"
      const option = quoted.replace(/^-\w, /, '').replace(/ <value>$/, '');
      return /missing/.test(message) ? `${option} needs a value` : /does not take/.test(message) ? `${option} takes no value` : `${option}: ${message}`;
    }
    default:
      return message.split('. ')[0];
  }
}

/** `--help` or `-h` before any `--`: the user asks for usage, whatever else the line says. */
export function wantsHelp(argv: string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
