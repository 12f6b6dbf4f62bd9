import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ModelRole } from './modelRoles';
import type { PromptCacheSlots } from './promptCacheSlots';

/**
 * Hands out chat models by role. The main model writes final answers; the tool model (usually
 * smaller and cheaper) runs LLM-as-a-tool steps. An action prompt or llm_tools entry may name
 * a different model, which the provider builds with the same endpoint settings.
 */
export interface ModelProvider {
  model(role: ModelRole, name?: string): BaseChatModel;
  modelName(role: ModelRole, name?: string): string;
  /**
   * A model failure in plain words ("401 from http://…/v1: check the API key"), never a stack or a key: this
   * text goes to the screen, run logs and history files as is, so the provider redacts the keys it holds.
   */
  describeError(error: unknown, role: ModelRole): string;
  /** The context window of the server behind a role, when the server says (llama-server does); see serverContextSize.ts. */
  contextSize?(role: ModelRole): Promise<number | undefined>;
  /** The endpoint (base URL) behind a role, e.g. to remember per model and endpoint what a server supports. */
  endpoint?(role: ModelRole): string | undefined;
  /** The server's prompt cache on disk, when it keeps one (llama-server with a slot save path); see promptCacheSlots.ts. */
  promptCacheSlots?(role: ModelRole): PromptCacheSlots;
}

/** For dry runs and tests without an endpoint: naming works, calling is a clear error. */
export const NO_MODELS: ModelProvider = {
  model(role) {
    throw new Error(`no ${role} model is configured: set codewiki.model in the settings (CLI: --model or CODEWIKI_MODEL)`);
  },
  modelName(role, name) {
    return name ?? `(${role} model not configured)`;
  },
  describeError(error) {
    return error instanceof Error ? error.message : String(error);
  },
};
