import { strict as assert } from 'node:assert';
import { createModelPair, resolveToolModelSettings } from '../../src/core/llm/createChatModel';
import { OpenAiTestServer } from '../support/openaiServer';

describe('createModelPair', () => {
  let mainServer: OpenAiTestServer;
  let toolServer: OpenAiTestServer;
  let mainURL: string;
  let toolURL: string;

  beforeEach(async () => {
    mainServer = new OpenAiTestServer((request) => ({ text: `main:${request.body?.model}` }));
    toolServer = new OpenAiTestServer((request) => ({ text: `tool:${request.body?.model}` }));
    ({ url: mainURL } = await mainServer.start());
    ({ url: toolURL } = await toolServer.start());
  });
  afterEach(() => Promise.all([mainServer.close(), toolServer.close()]));

  it('uses the main model for tool steps when no tool model is named', async () => {
    const pair = createModelPair({ baseURL: mainURL, model: 'big' }, { temperature: 0 });
    assert.equal(pair.tool, pair.main);
    assert.equal((await pair.tool.invoke('x')).content, 'main:big');
  });

  it('a named tool model inherits the endpoint and key of the main model', async () => {
    const pair = createModelPair({ baseURL: mainURL, model: 'big', apiKey: 'sk-main' }, { model: 'small' });
    assert.equal((await pair.tool.invoke('x')).content, 'main:small');
    assert.equal(mainServer.lastRequest().headers.authorization, 'Bearer sk-main');
  });

  it('never sends the main key to a different tool endpoint', async () => {
    const pair = createModelPair({ baseURL: mainURL, model: 'big', apiKey: 'sk-main' }, { model: 'small', baseURL: toolURL });
    assert.equal((await pair.tool.invoke('x')).content, 'tool:small');
    assert.equal(toolServer.lastRequest().headers.authorization, undefined);
    assert.equal(resolveToolModelSettings({ baseURL: mainURL, model: 'big', apiKey: 'k' }, { model: 's', baseURL: toolURL, apiKey: 't' }).apiKey, 't');
  });
});
