import { strict as assert } from 'node:assert';
import { AgentFixture } from '../agent/agentHarness';
import { HISTORY_WORKSPACE } from '../codebaseIndex/historyWorkspace';

const FILES = {
  ...HISTORY_WORKSPACE,
  'src/history/conversationIndex.ts': "import { saveConversation } from './conversationStore';\nexport function rebuildIndex(): void {}\n",
  'src/history/conversationFiles.ts': "import { rebuildIndex } from './conversationIndex';\nexport function listConversations(): string[] {\n  return [];\n}\n",
  // Two more folders of four files: a wiki of three modules, where a module's overview says something the others do not.
  ...Object.fromEntries(
    ['llm/modelCalls', 'llm/tokenCounts', 'llm/streamParts', 'ui/panelView', 'ui/chatList', 'ui/statusLine', 'ui/themeColors'].map((name) => [
      `src/${name}.ts`,
      `export function ${name.split('/')[1]}(): string {\n  return '${name}';\n}\n`,
    ]),
  ),
};
const OVERVIEW = 'Each save waits for `ConversationLock` before it writes, so two windows never interleave their writes.';

const searchResult = (fx: AgentFixture) => String(fx.server.requests[0]!.body!.messages!.find((m) => m.role === 'tool')!.content);

/** Issue 23: a "how does X work" question starts from the wiki's overview of the module its best match is in. */
describe('the wiki in the agent (scripted server)', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  /** The fixture with its wiki written and the overview saved on the page of the lock's module; that page. */
  async function withWiki(answers: Array<{ text: string }>): Promise<{ page: string; module: string }> {
    fx = await new AgentFixture(FILES, answers).start();
    const { wiki } = await fx.engine.wiki.updateStructure();
    const history = wiki.modules.find((module) => module.files.includes('src/history/conversationLock.ts'))!;
    const saved = await fx.engine.wiki.saveProse(history.page, OVERVIEW, 'test-model');
    assert.equal(saved.written, true);
    return { page: history.page, module: history.id };
  }
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it("a how-question gets the overview of the best match's module with the index's matches, as the user sees it", async () => {
    const { page, module } = await withWiki([{ text: 'Saves wait for ConversationLock (src/history/conversationLock.ts:2).' }]);
    await fx!.ask('How do several windows share the history without clobbering each other?', { useCodeIndex: true });
    const result = searchResult(fx!);
    const named = module === '.' ? 'the top level' : module;
    // Before the matches, which end the message: a small model answers from what it read last.
    assert.match(
      result,
      new RegExp(
        `^Background from the project wiki \\(${escape(page)}, about ${escape(named)}\\):\\nEach save waits for \`ConversationLock\` before it writes[^\\n]*\\n\\nBest matches in the code index`,
      ),
    );
    assert.doesNotMatch(result, /\]\(/, 'links are dropped: the model gets the words');
    const shown = fx!.eventsOf('tool-call-end').find((e) => e.tool === 'search_code')!;
    assert.equal(shown.output, result, 'the user sees exactly what the model was given');
  });

  it('a where-is question gets the matches alone (the overview would cost prompt time and answer nothing)', async () => {
    await withWiki([{ text: 'src/history/conversationLock.ts:2' }]);
    await fx!.ask('Which file defines ConversationLock?', { useCodeIndex: true });
    assert.doesNotMatch(searchResult(fx!), /Background from the project wiki/);
    const offered = fx!.server.requests[0]!.body!.tools!.map((tool) => tool.function.name);
    assert.ok(offered.includes('read_wiki'), `a workspace with a wiki offers read_wiki: ${offered.join(', ')}`);
  });

  it('a workspace without a wiki is not offered read_wiki (its page would repeat the index, at a prompt cost)', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'src/history/conversationLock.ts:2' }]).start();
    await fx.ask('Which file defines ConversationLock?', { useCodeIndex: true });
    const offered = fx.server.requests[0]!.body!.tools!.map((tool) => tool.function.name);
    assert.ok(offered.includes('search_code') && !offered.includes('read_wiki'), offered.join(', '));
  });

  it("read_wiki gives the agent the module page for a file, without the page's markers and diagram", async () => {
    const { page } = await withWiki([]);
    const tool = fx!.engine.agentRegistry.get('read_wiki')!;
    const result = (await tool.tool.invoke({ about: 'src/history/conversationStore.ts' })) as { text: string; page: string };
    assert.equal(result.page, page);
    assert.match(result.text, /^# `/);
    assert.match(result.text, /Each save waits for \[`ConversationLock`\]\(/);
    assert.doesNotMatch(result.text, /codewiki:|```mermaid/);
  });
});
