import type { LanguageModelChatLike } from './languageModelApi';

/**
 * The model a setting or prompt names: by id first, then family, then display name, each case-insensitive;
 * `vendor/…` narrows to one vendor (e.g. `copilot/gpt-4.1`). Undefined when none matches.
 */
export function findLanguageModel(models: readonly LanguageModelChatLike[], wanted: string): LanguageModelChatLike | undefined {
  const trimmed = wanted.trim();
  const slash = trimmed.indexOf('/');
  if (slash > 0) {
    const vendor = trimmed.slice(0, slash).toLowerCase();
    const match = matchByName(
      models.filter((model) => model.vendor.toLowerCase() === vendor),
      trimmed.slice(slash + 1),
    );
    if (match) return match;
  }
  // Ids may contain slashes themselves (e.g. "org/model"), so the whole text is tried too.
  return matchByName(models, trimmed);
}

function matchByName(models: readonly LanguageModelChatLike[], wanted: string): LanguageModelChatLike | undefined {
  const name = wanted.toLowerCase();
  if (!name) return models[0];
  for (const field of ['id', 'family', 'name'] as const) {
    const match = models.find((model) => model[field].toLowerCase() === name);
    if (match) return match;
  }
  return undefined;
}

/** How a model is listed for the user: `Name (vendor/id)`. */
export function describeLanguageModel(model: LanguageModelChatLike): string {
  return `${model.name} (${model.vendor}/${model.id})`;
}
