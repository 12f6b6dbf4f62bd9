import * as vscode from 'vscode';
import { NO_MODELS, type ModelProvider } from '../../core/llm/modelProvider';
import type { HostStatus } from '../../shared/protocol';
import type { CodewikiSettings } from '../extensionSettings';
import { describeVscodeModelError } from './describeVscodeModelError';
import { describeLanguageModel, findLanguageModel } from './findLanguageModel';
import type { LanguageModelApi, LanguageModelChatLike } from './languageModelApi';
import { NoLanguageModelError } from './languageModelErrors';
import { VscodeModelProvider } from './vscodeModelProvider';

export interface VscodeModelSetup {
  models: ModelProvider;
  /** The status fields the view shows for this provider (the caller adds the API key and trust). */
  status: Pick<HostStatus, 'configured' | 'provider' | 'baseUrl' | 'model' | 'modelLabel' | 'problem'>;
  /** One line for the CodeWiki output channel. */
  summary: string;
}

const JUSTIFICATION = 'CodeWiki answers your questions, runs action prompts and its agent with this model.';

/**
 * Picks the VS Code language model for `codewiki.provider: vscode` and builds the ModelProvider over it. When no
 * model can answer, the provider's calls fail with the same plain words the view shows in its setup box.
 */
export async function setUpVscodeModels(settings: CodewikiSettings): Promise<VscodeModelSetup> {
  const api = languageModelApi();
  if (!api)
    return unavailable(
      `This VS Code (${vscode.version}) cannot lend its language models with tools: VS Code 1.95 or later is needed for codewiki.provider "vscode". Update VS Code, or set CodeWiki › Provider to openai.`,
    );
  let offered: LanguageModelChatLike[];
  try {
    offered = (await vscode.lm.selectChatModels()) as unknown as LanguageModelChatLike[];
  } catch (error) {
    return unavailable(`VS Code could not list its language models: ${(error as Error).message}`);
  }
  if (!offered.length) {
    return unavailable(
      'No VS Code language model is available. Install and sign in to an extension that provides one (for example GitHub Copilot Chat); CodeWiki picks it up as soon as it appears. Or set CodeWiki › Provider to openai to use an OpenAI-compatible endpoint.',
    );
  }
  const chosen = settings.vscodeModel ? findLanguageModel(offered, settings.vscodeModel) : offered[0];
  if (!chosen) {
    return unavailable(
      `No VS Code language model matches CodeWiki › Vscode Model (codewiki.vscodeModel) "${settings.vscodeModel}". Available: ${offered.map(describeLanguageModel).join(', ')}.`,
    );
  }
  return {
    models: new VscodeModelProvider(chosen, offered, api, { timeoutMs: settings.requestTimeoutSeconds * 1000, justification: JUSTIFICATION }),
    status: { configured: true, provider: 'vscode', baseUrl: '', model: chosen.id, modelLabel: `VS Code · ${chosen.name}` },
    summary: `Model: ${describeLanguageModel(chosen)} through VS Code's language models. Offered: ${offered.map(describeLanguageModel).join(', ')}.`,
  };
}

/** Calls `listener` when extensions add or remove language models, so the provider and the view follow. */
export function watchLanguageModels(listener: () => void): vscode.Disposable {
  return vscode.lm?.onDidChangeChatModels?.(listener) ?? new vscode.Disposable(() => {});
}

function unavailable(problem: string): VscodeModelSetup {
  const models: ModelProvider = {
    ...NO_MODELS,
    model() {
      throw new NoLanguageModelError(problem);
    },
    modelName: () => 'no VS Code model',
    describeError: (error) => describeVscodeModelError(error, 'VS Code language model'),
  };
  return { models, status: { configured: false, provider: 'vscode', baseUrl: '', modelLabel: 'VS Code · no model available', problem }, summary: problem };
}

/** The real classes, or undefined in a VS Code without the tool parts (before 1.95). */
function languageModelApi(): LanguageModelApi | undefined {
  const lm = vscode as unknown as Partial<{
    LanguageModelTextPart: LanguageModelApi['TextPart'];
    LanguageModelToolCallPart: LanguageModelApi['ToolCallPart'];
    LanguageModelToolResultPart: LanguageModelApi['ToolResultPart'];
    LanguageModelChatToolMode: { Auto: number; Required: number };
  }>;
  const { LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart, LanguageModelChatToolMode } = lm;
  if (!vscode.lm?.selectChatModels || !LanguageModelTextPart || !LanguageModelToolCallPart || !LanguageModelToolResultPart || !LanguageModelChatToolMode)
    return undefined;
  const message = vscode.LanguageModelChatMessage as unknown as { User(content: unknown[]): never; Assistant(content: unknown[]): never };
  return {
    TextPart: LanguageModelTextPart,
    ToolCallPart: LanguageModelToolCallPart,
    ToolResultPart: LanguageModelToolResultPart,
    user: (content) => message.User(content),
    assistant: (content) => message.Assistant(content),
    toolMode: { auto: LanguageModelChatToolMode.Auto, required: LanguageModelChatToolMode.Required },
    newCancellation: () => new vscode.CancellationTokenSource(),
  };
}
