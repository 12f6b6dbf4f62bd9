/**
 * What a seed-002 chain may read from outside itself. `${env.X}` reads only names the user
 * listed (the user setting `codewiki.dialect.allowedEnv`, or `CODEWIKI_ALLOWED_ENV` for the CLI):
 * a chain file comes from a repository, and must not be able to put the user's API key or any
 * other environment value into a prompt just by naming it (security.md #8).
 */
export interface DialectOptions {
  allowedEnv: readonly string[];
  /** Where allowed names are read from, at load time. */
  env: Readonly<Record<string, string | undefined>>;
}

export const NO_ENVIRONMENT: DialectOptions = { allowedEnv: [], env: {} };

/** `HOME, USER` or `HOME USER` → ['HOME', 'USER']. */
export function parseAllowedEnv(list: string | undefined): string[] {
  return (list ?? '').split(/[\s,]+/).filter(Boolean);
}
