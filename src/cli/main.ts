import { ActionPromptError, formatDiagnostic } from '../core/yaml/diagnostics';
import { WorkspaceAccessError } from '../core/workspace';
import { version } from '../../package.json';
import { CliError, EXIT } from './cliErrors';
import { askCommand, ASK_USAGE } from './commands/askCommand';
import { indexCommand, INDEX_USAGE } from './commands/indexCommand';
import { listCommand, LIST_USAGE } from './commands/listCommand';
import { localModelCommand, LOCAL_MODEL_USAGE } from './commands/localModelCommand';
import { probeCommand, PROBE_USAGE } from './commands/probeCommand';
import { runCommand, RUN_USAGE } from './commands/runCommand';
import { searchCommand, SEARCH_USAGE } from './commands/searchCommand';
import { toolsCommand, TOOLS_USAGE } from './commands/toolsCommand';
import { validateCommand, VALIDATE_USAGE } from './commands/validateCommand';
import { wikiCommand, WIKI_USAGE } from './commands/wikiCommand';
import { describeParseError, wantsHelp } from './parseCliArgs';

const indent = (text: string) => text.replace(/\n/g, '\n  ');

const USAGE = `CodeWiki — run YAML action prompts over your code with any OpenAI-compatible model.

Usage:
  ${indent(RUN_USAGE)}

  ${indent(ASK_USAGE)}

  ${indent(SEARCH_USAGE)}

  ${indent(INDEX_USAGE)}

  ${indent(WIKI_USAGE)}

  ${indent(VALIDATE_USAGE)}

  ${indent(LIST_USAGE)}

  ${indent(TOOLS_USAGE)}

  ${indent(PROBE_USAGE)}

  ${indent(LOCAL_MODEL_USAGE)}

  codewiki --version               the version
  codewiki <command> --help        a command's usage; "codewiki run <id> --help" shows that prompt's inputs
`;

/** Usage printed for `codewiki <command> --help`; `run` answers itself, since it can describe a prompt too. */
const COMMAND_USAGE: Record<string, string> = {
  ask: ASK_USAGE,
  search: SEARCH_USAGE,
  index: INDEX_USAGE,
  wiki: WIKI_USAGE,
  validate: VALIDATE_USAGE,
  list: LIST_USAGE,
  tools: TOOLS_USAGE,
  probe: PROBE_USAGE,
  'local-model': LOCAL_MODEL_USAGE,
};

/** Dispatches a command and maps every failure to a plain message and an exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
  try {
    if (command !== undefined && COMMAND_USAGE[command] && wantsHelp(rest)) {
      io.stdout.write(`${COMMAND_USAGE[command]}\n`);
      return EXIT.ok;
    }
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      case 'ask':
        return await askCommand(rest, io);
      case 'search':
        return await searchCommand(rest, io);
      case 'index':
        return await indexCommand(rest, io);
      case 'wiki':
        return await wikiCommand(rest, io);
      case 'validate':
        return await validateCommand(rest, io);
      case 'list':
        return await listCommand(rest, io);
      case 'tools':
        return await toolsCommand(rest, io);
      case 'probe':
        return await probeCommand(rest, io);
      case 'local-model':
        return await localModelCommand(rest, io);
      case '--version':
      case '-v':
      case '-V':
      case 'version':
        io.stdout.write(`codewiki ${version}\n`);
        return EXIT.ok;
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.stdout.write(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new CliError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    return report(error, command);
  }
}

function report(error: unknown, command: string | undefined): number {
  if (error instanceof ActionPromptError) {
    for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    return EXIT.usage;
  }
  if (error instanceof CliError || error instanceof WorkspaceAccessError) {
    process.stderr.write(`codewiki: ${error.message}\n`);
    return error instanceof CliError ? error.exitCode : EXIT.usage;
  }
  const parseError = describeParseError(error);
  if (parseError !== undefined) {
    process.stderr.write(`codewiki: ${parseError}; see "codewiki ${command} --help"\n`);
    return EXIT.usage;
  }
  process.stderr.write(`codewiki: ${(error as Error)?.message ?? String(error)}\n`);
  return EXIT.failed;
}
