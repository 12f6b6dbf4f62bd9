import { runningLocalModel } from '../../core/localModel/acquireLocalModel';
import { readLeases } from '../../core/localModel/leases';
import { codewikiCacheDir } from '../../core/localModel/localModelFiles';
import { stopLocalModel } from '../../core/localModel/stopLocalModel';
import { CliError, EXIT } from '../cliErrors';
import { describeLocalModel, localModelWanted, startCliLocalModel } from '../localModel/cliLocalModel';
import { parseCliArgs } from '../parseCliArgs';

export const LOCAL_MODEL_USAGE = `codewiki local-model [status | start | stop] [options]
  the local model that run and ask start when no endpoint is configured (llama.cpp's llama-server with
  pinned weights, built and downloaded into ~/.cache/codewiki on first use), shared by every CodeWiki
  window and command on this machine
  status               the running server: URL, model, who holds it (exit 1 when none runs)
  start                starts it, or reuses the one running; prints "local model ready: URL model=NAME"
    --model NAME       a pinned model (default: CODEWIKI_LOCAL_MODEL, else qwen2.5-coder-1.5b-instruct)
    --hold PID         keep it while process PID runs (start.sh passes its own), instead of the idle time
  stop                 stops it now, whoever uses it
A server the CLI started stays up CODEWIKI_LOCAL_MODEL_IDLE_MINUTES (10) after the last command.`;

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

/** `codewiki local-model`: see, start and stop the shared local model (src/core/localModel/). */
export async function localModelCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCliArgs('local-model', argv, {
    allowPositionals: true,
    options: { model: { type: 'string' }, hold: { type: 'string' } },
  });
  const action = positionals[0] ?? 'status';
  if (positionals.length > 1 || !['status', 'start', 'stop'].includes(action)) throw new CliError(`expected status, start or stop\n\n${LOCAL_MODEL_USAGE}`);
  const cacheDir = codewikiCacheDir(process.env);
  if (action === 'start') {
    const holderPid = values.hold === undefined ? undefined : pid(values.hold);
    const local = await startCliLocalModel(process.env, io.stderr, { model: values.model ?? localModelWanted(process.env).model, holderPid });
    io.stderr.write(describeLocalModel(local, process.env, holderPid));
    io.stdout.write(`local model ready: ${local.url} model=${local.model}\n`);
    return EXIT.ok;
  }
  if (action === 'stop') {
    const stopped = await stopLocalModel(cacheDir);
    io.stderr.write(stopped ? `stopped the local model ${stopped.model} (llama.cpp at ${stopped.url})\n` : 'no local model is running\n');
    return EXIT.ok;
  }
  const running = await runningLocalModel(cacheDir);
  if (!running) {
    io.stdout.write('no local model is running\n');
    return EXIT.failed;
  }
  const holders = readLeases(running.leasesDir).filter((lease) => lease.live);
  io.stdout.write(`local model ${running.model} (llama.cpp at ${running.url}), pid ${running.pid}, started ${running.startedAt}\n`);
  for (const lease of holders) {
    io.stdout.write(`  held by pid ${lease.pid}${lease.untilMs ? `, or until ${new Date(lease.untilMs).toLocaleTimeString()}` : ''}\n`);
  }
  return EXIT.ok;
}

function pid(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 1) throw new CliError(`--hold ${text}: expected a process id`);
  return value;
}
