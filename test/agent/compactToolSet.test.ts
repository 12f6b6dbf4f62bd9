import { strict as assert } from 'node:assert';
import { compactSchema, firstSentence } from '../../src/core/agent/compactToolSet';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

/** Small models pay for every token of tool schema on a cold cache: they are offered the compact set, in short words. */
describe('the compact tool set for small models', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: OpenAiTestServer;
  beforeEach(async () => {
    ws = tempWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
    server = new OpenAiTestServer([{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }]);
    await server.start();
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });
  const toolsSentTo = async (model: string, ...flags: string[]) => {
    const result = await runCli(['ask', 'What is a?', '--workspace', ws.root, '--base-url', server.url, '--model', model, ...flags]);
    assert.equal(result.code, 0, result.stderr);
    return server.lastRequest().body!.tools!;
  };

  it('a 1.5B model gets eight tools in their first sentences; a large model gets every tool with its whole description', async () => {
    const small = await toolsSentTo('qwen2.5-coder-1.5b-instruct');
    assert.deepEqual(small.map((t) => t.function.name).sort(), [
      'edit_file',
      'find_symbol',
      'list_files',
      'read_file',
      'run_command',
      'search_code',
      'search_text',
      'write_file',
    ]);
    const large = await toolsSentTo('gpt-4o');
    const names = large.map((t) => t.function.name);
    for (const name of ['repo_map', 'get_file_summaries', 'get_files_content_by_list']) assert.ok(names.includes(name), name);
    const writeSmall = small.find((t) => t.function.name === 'write_file')!.function;
    const writeLarge = large.find((t) => t.function.name === 'write_file')!.function;
    assert.equal(writeSmall.description, 'Create a text file, or replace the whole content of an existing one.');
    assert.ok(writeLarge.description!.startsWith(`${writeSmall.description} `), 'the large model reads the rest too');
    assert.ok(JSON.stringify(small).length < JSON.stringify(large).length * 0.7, 'the compact payload is much smaller');
    const smallProps = (writeSmall.parameters as { properties: Record<string, unknown> }).properties;
    assert.deepEqual(
      Object.keys(smallProps),
      Object.keys((writeLarge.parameters as { properties: Record<string, unknown> }).properties),
      'every parameter stays',
    );
    const exploring = (await toolsSentTo('qwen2.5-coder-1.5b-instruct', '--no-index')).map((t) => t.function.name);
    assert.ok(
      exploring.includes('get_file_summaries') && exploring.includes('get_files_content_by_list'),
      'without the index a small model has to explore: the full set',
    );
  });

  it('cuts descriptions at the end of the first sentence, never inside a path or a number, and keeps a parameter named "description"', () => {
    assert.equal(firstSentence('Read one file (1-based, inclusive). Large files are cut.'), 'Read one file (1-based, inclusive).');
    assert.equal(firstSentence('Use e.g. src/a.ts or v1.2 here.'), 'Use e.g. src/a.ts or v1.2 here.');
    assert.equal(
      firstSentence('Only files matching this glob, e.g. `src/**/*.ts`. Matched against the path.'),
      'Only files matching this glob, e.g. `src/**/*.ts`.',
      'an example after "e.g." is kept',
    );
    assert.equal(firstSentence('A name, i.e. "Foo". Case matters.'), 'A name, i.e. "Foo".');
    const schema = compactSchema({ type: 'object', description: 'One. Two.', properties: { description: { type: 'string', description: 'The text. More.' } } });
    assert.deepEqual(schema, { type: 'object', description: 'One.', properties: { description: { type: 'string', description: 'The text.' } } });
  });
});
