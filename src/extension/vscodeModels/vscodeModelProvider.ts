import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ModelProvider } from '../../core/llm/modelProvider';
import type { ModelRole } from '../../core/llm/modelRoles';
import { describeVscodeModelError } from './describeVscodeModelError';
import type { LanguageModelApi, LanguageModelChatLike } from './languageModelApi';
import { LanguageModelChatModel, type LanguageModelChatSettings } from './languageModelChatModel';
import { findLanguageModel } from './findLanguageModel';

/**
 * The core's ModelProvider over VS Code's language models (`codewiki.provider: vscode`). The models were chosen
 * when the provider was built (vscodeModelSetup.ts); both roles use the chosen one. An action prompt or llm_tools
 * entry that names a model gets it when the chosen model's vendor offers one by that id, family or name, and the
 * chosen one otherwise: the names in shared prompts are usually OpenAI-style, and the run log records the model
 * that ran. Only the user's vendor: VS Code asks for consent once per vendor, so a repository's prompt that could
 * name any model (`othervendor/x`) would send workspace content to a provider the user never picked.
 */
export class VscodeModelProvider implements ModelProvider {
  private readonly cache = new Map<string, BaseChatModel>();

  constructor(
    private readonly chosen: LanguageModelChatLike,
    private readonly available: readonly LanguageModelChatLike[],
    private readonly api: LanguageModelApi,
    private readonly settings: LanguageModelChatSettings,
  ) {}

  model(_role: ModelRole, name?: string): BaseChatModel {
    const chat = this.chatFor(name);
    const key = `${chat.vendor}/${chat.id}`;
    let model = this.cache.get(key);
    if (!model) {
      model = new LanguageModelChatModel(chat, this.api, this.settings);
      this.cache.set(key, model);
    }
    return model;
  }

  modelName(_role: ModelRole, name?: string): string {
    return this.chatFor(name).id;
  }

  describeError(error: unknown): string {
    return describeVscodeModelError(error, this.chosen.name);
  }

  /** The model's input limit, which the action-prompt runner keeps prompts under. */
  contextSize(): Promise<number | undefined> {
    return Promise.resolve(this.chosen.maxInputTokens > 0 ? this.chosen.maxInputTokens : undefined);
  }

  /** What the tool-protocol memory keys on, beside the model name. */
  endpoint(): string {
    return `vscode-lm:${this.chosen.vendor}`;
  }

  private chatFor(name: string | undefined): LanguageModelChatLike {
    if (!name) return this.chosen;
    return (
      findLanguageModel(
        this.available.filter((model) => model.vendor === this.chosen.vendor),
        name,
      ) ?? this.chosen
    );
  }
}
