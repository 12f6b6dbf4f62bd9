/**
 * The part of VS Code's language model API (`vscode.lm`) that CodeWiki's `vscode` provider uses, as structural
 * types. The tool parts and `LanguageModelChatTool` are newer than the `@types/vscode` this extension builds
 * against (they arrived in VS Code 1.95), and these modules stay free of the `vscode` import, so the message and
 * tool conversion runs in plain Node as well; vscodeModelSetup.ts hands in the real classes.
 */

export interface LmTextPart {
  value: string;
}

export interface LmToolCallPart {
  callId: string;
  name: string;
  input: object;
}

export interface LmToolResultPart {
  callId: string;
  content: unknown[];
}

export type LmUserPart = LmTextPart | LmToolResultPart;
export type LmAssistantPart = LmTextPart | LmToolCallPart;

/** A LanguageModelChatMessage, built only through `LanguageModelApi.user/assistant`. */
export interface LmMessage {
  role: number;
  content: unknown;
}

/** A LanguageModelChatTool: what the model is told about one tool. */
export interface LmTool {
  name: string;
  description: string;
  inputSchema?: object;
}

export interface LmRequestOptions {
  justification?: string;
  tools?: LmTool[];
  toolMode?: number;
}

export interface LmCancellation {
  readonly token: unknown;
  cancel(): void;
  dispose(): void;
}

/** A LanguageModelChat, as `vscode.lm.selectChatModels` returns it. */
export interface LanguageModelChatLike {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  sendRequest(messages: LmMessage[], options?: LmRequestOptions, token?: unknown): PromiseLike<{ stream: AsyncIterable<unknown> }>;
  countTokens(text: string, token?: unknown): PromiseLike<number>;
}

/** The classes and enums of `vscode` the adapter builds requests with and recognises response parts by. */
export interface LanguageModelApi {
  TextPart: new (value: string) => LmTextPart;
  ToolCallPart: new (callId: string, name: string, input: object) => LmToolCallPart;
  ToolResultPart: new (callId: string, content: LmTextPart[]) => LmToolResultPart;
  user(content: LmUserPart[]): LmMessage;
  assistant(content: LmAssistantPart[]): LmMessage;
  /** LanguageModelChatToolMode.Auto and .Required. */
  toolMode: { auto: number; required: number };
  newCancellation(): LmCancellation;
}
