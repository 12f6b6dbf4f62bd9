import { probeServer } from '../../core/toolTester';
import { SecretRedactor } from '../../core/util/secretRedactor';
import { CliError, EXIT } from '../cliErrors';
import { DEFAULT_BASE_URL, modelSettingsFromCli } from '../cliSettings';
import { parseCliArgs } from '../parseCliArgs';
import { ProbeProgress } from './probeProgress';
import { formatProbeReport } from './probeReport';

export const PROBE_USAGE = `codewiki probe [--base-url URL] [--model M] [--raw] [--json]
  asks the model one small tool-calling question twice, with native tool calls and by the text
  protocol, and says which works and which --tool-protocol / codewiki.agent.toolProtocol fits
  --base-url URL       the model endpoint (env CODEWIKI_BASE_URL; default ${DEFAULT_BASE_URL})
  --model M            the model (env CODEWIKI_MODEL)
  --raw                also print every raw request and response (the API key removed)
  --json               the whole result as JSON, raw exchanges included
Exit 0 when at least one protocol works, 1 when neither does, 2 on a usage error, 130 on Ctrl-C.`;

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

/** `codewiki probe`: the tester's "Test my server" (core/toolTester/probeServer.ts) on the command line. */
export async function probeCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseCliArgs('probe', argv, {
    options: { 'base-url': { type: 'string' }, model: { type: 'string' }, raw: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const { settings } = modelSettingsFromCli({ baseUrl: values['base-url'], model: values.model }, process.env);
  if (!settings) throw new CliError('no model configured: pass --model (and --base-url for servers other than OpenAI), or set CODEWIKI_MODEL');
  // The core already removes the key from what it records; this is a second guard on everything printed.
  const redactor = new SecretRedactor([settings.apiKey]);
  const write = (out: NodeJS.WritableStream, text: string) => out.write(redactor.redact(text));

  const controller = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(EXIT.cancelled); // a second Ctrl-C does not wait
    interrupted = true;
    write(io.stderr, '\n■ cancelling…\n');
    controller.abort();
    // The abort closes the request at once; this is only the backstop, as for run and ask.
    setTimeout(() => process.exit(EXIT.cancelled), 900).unref();
  };
  process.on('SIGINT', onSigint);
  try {
    const progress = new ProbeProgress((text) => write(io.stderr, text), settings.model);
    write(io.stderr, `probing ${settings.model} at ${settings.baseURL}: the same question with native tool calls, then by the text protocol\n`);
    const result = await probeServer(settings, { signal: controller.signal, tuning: { fetch: progress.wrap() } });
    if (controller.signal.aborted) return EXIT.cancelled;
    write(io.stdout, values.json ? `${JSON.stringify(result, null, 2)}\n` : formatProbeReport(result, values.raw ?? false));
    return result.verdict === 'neither' ? EXIT.failed : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
