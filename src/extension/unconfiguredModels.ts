import { type ModelProvider, NO_MODELS } from '../core/llm/modelProvider';

/**
 * The model provider while no endpoint or model is set, in VS Code's words: the core's message names
 * the CLI's flags and variables, which mean nothing in the editor. The webview's error box and empty
 * state offer "Open settings", which shows every CodeWiki setting.
 */
export const UNCONFIGURED_MODELS: ModelProvider = {
  ...NO_MODELS,
  model(role) {
    throw new Error(
      `No ${role === 'tool' ? 'tool ' : ''}model is configured: set CodeWiki › Base Url (an OpenAI-compatible endpoint ending in /v1) and CodeWiki › Model in the settings (Open settings, or the gear in the CodeWiki view), or run CodeWiki: Start Local Model to answer on a model on this machine.`,
    );
  },
};
