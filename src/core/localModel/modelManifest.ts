import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LocalModelError } from './localModelError';

/** What a host needs to know of scripts/local-model/models.json: the names it may ask serve.sh for, and sizes to warn about. */
export interface PinnedModels {
  defaultModel: string;
  models: Record<string, { description: string; size: number }>;
}

/** The manifest beside `serveScript` (serve.sh and models.json ship together, in the clone and in the VSIX). */
export function readPinnedModels(serveScript: string): PinnedModels {
  const file = join(dirname(serveScript), 'models.json');
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as PinnedModels;
    return { defaultModel: manifest.defaultModel, models: manifest.models };
  } catch (error) {
    throw new LocalModelError(`cannot read the local models' manifest ${file}: ${(error as Error).message}`);
  }
}

/** The pinned model to serve: the requested name, or the manifest's default when none is asked for. */
export function pinnedModelName(pinned: PinnedModels, requested: string | undefined): string {
  const name = requested?.trim() || pinned.defaultModel;
  if (!pinned.models[name]) throw new LocalModelError(`"${name}" is not a pinned local model; choose one of: ${Object.keys(pinned.models).join(', ')}`);
  return name;
}
