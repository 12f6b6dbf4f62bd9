import { strict as assert } from 'node:assert';
import { isFileTree, isSearchResults } from '../../src/core/values/toolValues';
import { type TempFolder, makeTempFolder, openFileTools } from './helpers/tempWorkspace';

describe('registerFileTools', () => {
  let root: TempFolder;
  beforeEach(() => {
    root = makeTempFolder();
  });
  afterEach(() => root.cleanup());

  it('registers the five file tools as read-only, with categories, deadlines and display names', async () => {
    const { registry } = await openFileTools(root.path);
    assert.deepEqual(registry.names().sort(), ['get_file_summaries', 'get_files_content_by_list', 'list_files', 'read_file', 'search_text']);
    for (const { metadata } of registry.list()) {
      assert.equal(metadata.kind, 'read');
      assert.ok(metadata.timeoutMs > 0);
      assert.ok(metadata.displayName.length > 0);
      assert.ok(metadata.description.length > 20);
    }
    assert.equal(registry.get('search_text')!.metadata.category, 'search');
    assert.equal(registry.get('read_file')!.metadata.category, 'file');
    assert.deepEqual(registry.parameterNames('read_file'), ['path', 'start_line', 'end_line']);
    assert.deepEqual(registry.parameterNames('get_files_content_by_list'), ['file_paths']);
  });

  it('returns values the template renderer recognises', async () => {
    root.write({ 'a.ts': 'export const a = 1;\n' });
    const tools = await openFileTools(root.path);
    assert.ok(isFileTree(await tools.invoke('list_files', {})));
    assert.ok(isSearchResults(await tools.invoke('search_text', { query: 'a' })));
  });
});
