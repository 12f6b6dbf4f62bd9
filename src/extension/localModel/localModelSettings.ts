import * as vscode from 'vscode';

export interface LocalModelSettings {
  /** `codewiki.localModel.autoStart`: start it without asking when no endpoint is configured. */
  autoStart: boolean;
  /** `codewiki.localModel.model`, else `CODEWIKI_LOCAL_MODEL` (as for start.sh and the CLI); empty: the pinned default. */
  model: string | undefined;
}

/** User settings only (application scope): a repository must not start a build and a download on its own. */
export function readLocalModelSettings(env: NodeJS.ProcessEnv = process.env): LocalModelSettings {
  const config = vscode.workspace.getConfiguration('codewiki');
  const envModel = env.CODEWIKI_LOCAL_MODEL && env.CODEWIKI_LOCAL_MODEL !== 'off' ? env.CODEWIKI_LOCAL_MODEL : undefined;
  return {
    autoStart: config.get<boolean>('localModel.autoStart') ?? false,
    model: config.get<string>('localModel.model')?.trim() || envModel,
  };
}

/** `CODEWIKI_LOCAL_MODEL=off` (start.sh's and the CLI's switch) keeps the extension from offering it too. */
export function localModelRefused(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CODEWIKI_LOCAL_MODEL === 'off';
}
