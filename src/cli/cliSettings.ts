import { NO_MODELS, type ModelProvider } from '../core/llm/modelProvider';
import type { ModelSettings } from '../core/llm/modelSettings';
import { OpenAiModelProvider } from '../core/llm/openAiModelProvider';
import { type DialectOptions, parseAllowedEnv } from '../core/actionPrompt/seedDialect';
import { describeLocalModel, localModelWanted, startCliLocalModel } from './localModel/cliLocalModel';
import { DeferredModelProvider } from './localModel/deferredModelProvider';

export interface ModelFlags {
  baseUrl?: string;
  model?: string;
  toolModel?: string;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface CliModels {
  provider: ModelProvider;
  /** An endpoint and model came from flags or the environment. */
  configured: boolean;
  baseURL: string;
  /**
   * Whether a model can answer, called once the command knows it needs one: true when configured; with
   * nothing configured it starts (or reuses) the local model (cliLocalModel.ts), says so on stderr and
   * points `provider` at it; false when that is refused (CODEWIKI_LOCAL_MODEL=off) or only half is set.
   */
  ready(): Promise<boolean>;
}

/**
 * Flags win over environment variables. The key only ever comes from the environment, so it
 * never appears in shell history or `ps` output.
 */
export function modelProviderFromCli(flags: ModelFlags, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream = process.stderr): CliModels {
  const { settings, baseURL } = modelSettingsFromCli(flags, env);
  const toolModel = flags.toolModel ?? env.CODEWIKI_TOOL_MODEL;
  if (settings) return { provider: new OpenAiModelProvider(settings, { model: toolModel }), configured: true, baseURL, ready: async () => true };
  const nothingSet = !flags.baseUrl && !env.CODEWIKI_BASE_URL && !flags.model && !env.CODEWIKI_MODEL;
  if (!nothingSet || !localModelWanted(env).allowed) return { provider: NO_MODELS, configured: false, baseURL, ready: async () => false };
  const deferred = new DeferredModelProvider();
  let started: Promise<boolean> | undefined;
  return {
    provider: deferred,
    configured: false,
    baseURL,
    ready: () =>
      (started ??= startCliLocalModel(env, stderr, { model: localModelWanted(env).model }).then((local) => {
        stderr.write(describeLocalModel(local, env));
        deferred.use(
          new OpenAiModelProvider(
            { ...modelSettingsFromCli({ baseUrl: local.url, model: local.model }, env).settings!, apiKey: undefined },
            { model: toolModel },
          ),
        );
        return true;
      })),
  };
}

/** The main model's settings from flags and environment, as `modelProviderFromCli` reads them; none without a model name. */
export function modelSettingsFromCli(flags: ModelFlags, env: NodeJS.ProcessEnv): { settings?: ModelSettings; baseURL: string } {
  const baseURL = flags.baseUrl ?? env.CODEWIKI_BASE_URL ?? DEFAULT_BASE_URL;
  const model = flags.model ?? env.CODEWIKI_MODEL;
  if (!model) return { baseURL };
  const apiKey = env.CODEWIKI_API_KEY || env.OPENAI_API_KEY || undefined;
  const timeoutSeconds = positiveNumber(env.CODEWIKI_TIMEOUT_SECONDS);
  const maxRetries = positiveNumber(env.CODEWIKI_MAX_RETRIES, true);
  return { settings: { baseURL, model, apiKey, timeoutMs: timeoutSeconds && timeoutSeconds * 1000, maxRetries }, baseURL };
}

function positiveNumber(text: string | undefined, allowZero = false): number | undefined {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && (value > 0 || (allowZero && value === 0)) ? value : undefined;
}

/** `CODEWIKI_ALLOW_SECRET_FILES`: comma-separated gitignore-style globs, the CLI's form of `codewiki.allowSecretFiles`. */
export function allowSecretFilesFromEnv(env: NodeJS.ProcessEnv): { allowSecrets: string[]; allowSecretsHint: string } {
  const allowSecrets = (env.CODEWIKI_ALLOW_SECRET_FILES ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return { allowSecrets, allowSecretsHint: 'add a pattern for it to CODEWIKI_ALLOW_SECRET_FILES (comma-separated globs)' };
}

/**
 * `CODEWIKI_ALLOWED_ENV`: the names (comma- or space-separated) that seed-002 chains may read as
 * `${env.X}`, the CLI's form of the user setting `codewiki.dialect.allowedEnv`.
 */
export function dialectFromEnv(env: NodeJS.ProcessEnv): DialectOptions {
  return { allowedEnv: parseAllowedEnv(env.CODEWIKI_ALLOWED_ENV), env };
}
