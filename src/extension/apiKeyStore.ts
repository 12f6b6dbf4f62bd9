import type * as vscode from 'vscode';

const SECRET_KEY = 'codewiki.apiKey';

/**
 * The API key lives only in SecretStorage (security.md #3); the CLI's environment variables are
 * a fallback when none is stored. Local servers need no key at all.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY)) || this.env.CODEWIKI_API_KEY || this.env.OPENAI_API_KEY || undefined;
  }

  set(key: string): Thenable<void> {
    return this.secrets.store(SECRET_KEY, key);
  }

  clear(): Thenable<void> {
    return this.secrets.delete(SECRET_KEY);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key === SECRET_KEY) listener();
    });
  }
}
