import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ModelRole } from './modelRoles';
import { SecretRedactor } from '../util/secretRedactor';
import { createChatModel, resolveToolModelSettings, type TransportTuning } from './createChatModel';
import { describeLlmError } from './describeLlmError';
import { fetchServerContextSize } from './serverContextSize';
import { withAuthorization } from './authorizedFetch';
import { llamaServerCheck } from './promptCacheHints';
import { llamaServerSlots, type PromptCacheSlots } from './promptCacheSlots';
import type { ModelProvider } from './modelProvider';
import type { ModelSettings } from './modelSettings';

/**
 * A ModelProvider over one OpenAI-compatible endpoint. Models are built on first use and
 * cached by name, so a run that names no override never builds more than the two it needs.
 */
export class OpenAiModelProvider implements ModelProvider {
  private readonly cache = new Map<string, BaseChatModel>();
  private readonly contextSizes = new Map<string, Promise<number | undefined>>();
  private readonly slots = new Map<string, PromptCacheSlots>();
  /** One llama-server check per endpoint, shared by its models and its prompt cache. */
  private readonly llamaChecks = new Map<string, () => Promise<boolean>>();
  /** Both keys, whichever role failed: a description must never carry either. */
  private readonly keys: SecretRedactor;

  constructor(
    private readonly main: ModelSettings,
    private readonly tool: Partial<ModelSettings> = {},
    private readonly tuning?: TransportTuning,
  ) {
    this.keys = new SecretRedactor([main.apiKey, tool.apiKey]);
  }

  model(role: ModelRole, name?: string): BaseChatModel {
    const settings = this.settingsFor(role, name);
    const key = `${settings.baseURL}\n${settings.model}`;
    let model = this.cache.get(key);
    if (!model) {
      model = createChatModel(settings, this.tuning, this.llamaCheck(settings));
      this.cache.set(key, model);
    }
    return model;
  }

  modelName(role: ModelRole, name?: string): string {
    return this.settingsFor(role, name).model;
  }

  describeError(error: unknown, role: ModelRole): string {
    return describeLlmError(error, this.settingsFor(role).baseURL, this.keys);
  }

  endpoint(role: ModelRole): string | undefined {
    return this.settingsFor(role).baseURL;
  }

  /** Asked once per endpoint and remembered: the window does not change while a server runs. */
  contextSize(role: ModelRole): Promise<number | undefined> {
    const { baseURL, apiKey } = this.settingsFor(role);
    let size = this.contextSizes.get(baseURL);
    if (!size) {
      size = fetchServerContextSize(baseURL, apiKey);
      this.contextSizes.set(baseURL, size);
    }
    return size;
  }

  promptCacheSlots(role: ModelRole): PromptCacheSlots {
    const { baseURL, apiKey } = this.settingsFor(role);
    let slots = this.slots.get(baseURL);
    if (!slots) {
      slots = llamaServerSlots(baseURL, apiKey, this.llamaCheck({ baseURL, apiKey }));
      this.slots.set(baseURL, slots);
    }
    return slots;
  }

  private llamaCheck({ baseURL, apiKey }: Pick<ModelSettings, 'baseURL' | 'apiKey'>): () => Promise<boolean> {
    let check = this.llamaChecks.get(baseURL);
    if (!check) {
      check = llamaServerCheck(
        baseURL,
        withAuthorization(apiKey, (input, init) => fetch(input, init)),
      );
      this.llamaChecks.set(baseURL, check);
    }
    return check;
  }

  private settingsFor(role: ModelRole, name?: string): ModelSettings {
    const base = role === 'main' ? this.main : resolveToolModelSettings(this.main, this.tool);
    return name ? { ...base, model: name } : base;
  }
}
