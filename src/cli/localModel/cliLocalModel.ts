import { acquireLocalModel, type LocalModel } from '../../core/localModel/acquireLocalModel';
import { codewikiCacheDir } from '../../core/localModel/localModelFiles';
import { LocalModelError } from '../../core/localModel/localModelError';
import { CliError, EXIT } from '../cliErrors';
import { localModelServeScript } from '../packagePaths';
import { LocalModelProgressLines } from './localModelProgressLines';

/** How long a server the CLI used stays up after the command ends, so the next `codewiki ask` reuses it. */
export const DEFAULT_IDLE_MINUTES = 10;

/**
 * `CODEWIKI_LOCAL_MODEL`: `off` refuses the local model; a pinned model's name chooses it (default: the
 * manifest's). start.sh reads the same variable.
 */
export function localModelWanted(env: NodeJS.ProcessEnv): { allowed: boolean; model?: string } {
  const value = env.CODEWIKI_LOCAL_MODEL?.trim();
  if (value === 'off') return { allowed: false };
  return { allowed: serveScript(env) !== undefined, model: value || undefined };
}

/** The shipped serve.sh, or `CODEWIKI_LOCAL_MODEL_SERVE`: a script that behaves like it (the CLI's tests use a fake). */
function serveScript(env: NodeJS.ProcessEnv): string | undefined {
  return env.CODEWIKI_LOCAL_MODEL_SERVE || localModelServeScript();
}

export function idleMinutes(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CODEWIKI_LOCAL_MODEL_IDLE_MINUTES);
  return env.CODEWIKI_LOCAL_MODEL_IDLE_MINUTES !== undefined && env.CODEWIKI_LOCAL_MODEL_IDLE_MINUTES !== '' && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_IDLE_MINUTES;
}

/**
 * Starts (or reuses) the shared local model for one CLI command, saying so on stderr with serve.sh's
 * progress; Ctrl-C while it starts stops the start. The command's lease lingers for the idle time after
 * the process exits (`holderPid`: someone else's, e.g. start.sh's, holds it for that process instead).
 */
export async function startCliLocalModel(
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
  options: { model?: string; holderPid?: number } = {},
): Promise<LocalModel> {
  const script = serveScript(env);
  if (!script) throw new CliError('the local model is not shipped with this installation (scripts/local-model/serve.sh is missing)');
  const progress = new LocalModelProgressLines((text) => stderr.write(text));
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let local: LocalModel;
  try {
    local = await acquireLocalModel({
      serveScript: script,
      cacheDir: codewikiCacheDir(env),
      model: options.model,
      holderPid: options.holderPid,
      env,
      signal: controller.signal,
      onProgress: (p) => progress.show(p),
    });
  } catch (error) {
    if (controller.signal.aborted) throw new CliError('cancelled while starting the local model', EXIT.cancelled);
    if (error instanceof LocalModelError) throw new CliError(error.message, EXIT.failed);
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (options.holderPid === undefined) {
    const lingerMs = idleMinutes(env) * 60_000;
    // From the moment the command ends, not from its start: a long answer must not use up the idle time.
    process.once('exit', () => (lingerMs > 0 ? local.lease.linger(Date.now() + lingerMs) : local.lease.release()));
  }
  return local;
}

/** The one stderr line that says which model answers, and how it came to run; `holderPid`: held for that process. */
export function describeLocalModel(local: LocalModel, env: NodeJS.ProcessEnv, holderPid?: number): string {
  const line = `using the local model ${local.model} (llama.cpp at ${local.url}; ${local.started ? 'started' : 'reused'})\n`;
  if (!local.started) return line;
  if (holderPid !== undefined) return `${line}  it stays up while process ${holderPid} runs, and while another CodeWiki window or command holds it\n`;
  const minutes = idleMinutes(env);
  const lifetime =
    minutes > 0
      ? `it stays up ${minutes} minute${minutes === 1 ? '' : 's'} after the last command (CODEWIKI_LOCAL_MODEL_IDLE_MINUTES); "codewiki local-model stop" ends it now`
      : 'it stops when this command ends (CODEWIKI_LOCAL_MODEL_IDLE_MINUTES=0)';
  return `${line}  ${lifetime}; CODEWIKI_LOCAL_MODEL=off never starts it\n`;
}
