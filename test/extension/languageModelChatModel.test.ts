import { strict as assert } from 'node:assert';
import { HumanMessage } from '@langchain/core/messages';
import type { LanguageModelApi, LanguageModelChatLike, LmMessage } from '../../src/extension/vscodeModels/languageModelApi';
import { LanguageModelChatModel } from '../../src/extension/vscodeModels/languageModelChatModel';
import { VscodeModelProvider } from '../../src/extension/vscodeModels/vscodeModelProvider';

class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class ToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}

/** The classes and factories the adapter uses, shaped like `vscode`'s (the real ones are used in code-server). */
function fakeApi(): LanguageModelApi & { cancelled: number } {
  const api = {
    cancelled: 0,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    user: (content: unknown[]): LmMessage => ({ role: 1, content }),
    assistant: (content: unknown[]): LmMessage => ({ role: 2, content }),
    toolMode: { auto: 1, required: 2 },
    newCancellation: () => ({ token: {}, cancel: () => void api.cancelled++, dispose: () => {} }),
  };
  return api as unknown as LanguageModelApi & { cancelled: number };
}

function chat(
  vendor: string,
  id: string,
  sendRequest: LanguageModelChatLike['sendRequest'] = async () => ({ stream: (async function* () {})() }),
): LanguageModelChatLike {
  return { id, name: id, vendor, family: id, version: '1', maxInputTokens: 1000, sendRequest, countTokens: async (text) => text.length };
}

describe('vscode.lm adapter (LanguageModelChatModel, VscodeModelProvider)', () => {
  it('a provider that never starts answering is stopped at the deadline, the request cancelled, with words for the user', async () => {
    const api = fakeApi();
    const model = new LanguageModelChatModel(
      chat('copilot', 'slow', () => new Promise(() => {})),
      api,
      { timeoutMs: 80, justification: 'test' },
    );
    await assert.rejects(
      model.invoke([new HumanMessage('hi')]),
      /slow did not start answering within 0 s \(if VS Code asked whether CodeWiki may use the model, allow it and retry\)/,
    );
    assert.ok(api.cancelled >= 1, 'the VS Code request was cancelled');
  });

  it('streams text parts as the answer', async () => {
    const parts = [new TextPart('Hello'), new TextPart(' world')];
    const model = new LanguageModelChatModel(
      chat('copilot', 'ok', async () => ({
        stream: (async function* () {
          yield* parts;
        })(),
      })),
      fakeApi(),
      { timeoutMs: 1000, justification: 'test' },
    );
    const answer = await model.invoke([new HumanMessage('hi')]);
    assert.equal(answer.content, 'Hello world');
  });

  it("a model a prompt names is taken only from the vendor the user chose, never another vendor's", () => {
    const chosen = chat('copilot', 'gpt-4.1');
    const provider = new VscodeModelProvider(chosen, [chosen, chat('copilot', 'gpt-4o-mini'), chat('othervendor', 'exfil')], fakeApi(), {
      timeoutMs: 1000,
      justification: 'test',
    });
    assert.equal(provider.modelName('main', 'gpt-4o-mini'), 'gpt-4o-mini', 'same vendor: honoured');
    assert.equal(provider.modelName('main', 'othervendor/exfil'), 'gpt-4.1', "another vendor: the user's model instead");
    assert.equal(provider.modelName('tool', 'exfil'), 'gpt-4.1');
  });
});
