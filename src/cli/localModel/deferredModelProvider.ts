import type { ModelRole } from '../../core/llm/modelRoles';
import { NO_MODELS, type ModelProvider } from '../../core/llm/modelProvider';
import type { PromptCacheSlots } from '../../core/llm/promptCacheSlots';

const NO_SLOTS: PromptCacheSlots = { available: async () => false, onThisMachine: false, restore: async () => undefined, save: async () => undefined };

/**
 * A provider whose endpoint is known only later: `codewiki run` loads its engine before it knows whether
 * the prompt calls a model at all, and only then starts the local model (a chain of file tools alone, or
 * a dry run, must not start a server). Until `use()` it answers as NO_MODELS does.
 */
export class DeferredModelProvider implements ModelProvider {
  private inner: ModelProvider = NO_MODELS;

  use(provider: ModelProvider): void {
    this.inner = provider;
  }

  model(role: ModelRole, name?: string) {
    return this.inner.model(role, name);
  }

  modelName(role: ModelRole, name?: string): string {
    return this.inner.modelName(role, name);
  }

  describeError(error: unknown, role: ModelRole): string {
    return this.inner.describeError(error, role);
  }

  contextSize(role: ModelRole): Promise<number | undefined> {
    return this.inner.contextSize?.(role) ?? Promise.resolve(undefined);
  }

  endpoint(role: ModelRole): string | undefined {
    return this.inner.endpoint?.(role);
  }

  promptCacheSlots(role: ModelRole): PromptCacheSlots {
    return this.inner.promptCacheSlots?.(role) ?? NO_SLOTS;
  }
}
