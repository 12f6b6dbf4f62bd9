import { strict as assert } from 'node:assert';
import { renderFileBundle, renderFileSummaries, renderSearchResults } from '../../src/core/values/renderFileValues';

describe('file value renderers', () => {
  it('renders a bundle with per-file headers, fenced code and missing files', () => {
    const text = renderFileBundle({
      kind: 'file-bundle',
      files: [
        { path: 'src/a.ts', language: 'typescript', content: 'const a = 1;\nconst b = 2;\n' },
        { path: 'README.md', language: 'markdown', content: '```js\nx\n```', truncated: true },
        { path: 'src/c.ts', language: 'typescript', content: 'x\n', startLine: 10, endLine: 10 },
      ],
      missing: [{ path: 'nope.ts', reason: '"nope.ts" does not exist in the workspace' }],
    });
    assert.equal(
      text,
      [
        '===== src/a.ts (typescript, 2 lines) =====',
        '```typescript',
        'const a = 1;',
        'const b = 2;',
        '```',
        '',
        '===== README.md (markdown, 3 lines, truncated) =====',
        '````markdown',
        '```js',
        'x',
        '```',
        '````',
        '',
        '===== src/c.ts (typescript, lines 10-10) =====',
        '```typescript',
        'x',
        '```',
        '',
        'Files not included:',
        '- nope.ts: "nope.ts" does not exist in the workspace',
      ].join('\n'),
    );
  });

  it('renders summaries with language, line count and size, and says when more exist', () => {
    const text = renderFileSummaries({
      kind: 'file-summaries',
      root: 'src',
      files: [{ path: 'src/a.ts', size: 2048, lines: 80, language: 'typescript', summary: 'export class A' }],
      totalFiles: 3,
      truncated: true,
    });
    assert.equal(
      text,
      [
        'Summaries of src (1 of 3 files shown)',
        '',
        '===== src/a.ts (typescript, 80 lines, 2 KB) =====',
        'export class A',
        '',
        '… more files exist: summarise a sub-folder or use a glob to see them.',
      ].join('\n'),
    );
  });

  it('renders search results as path:line:col: text', () => {
    assert.equal(
      renderSearchResults({
        kind: 'search-results',
        query: 'value',
        matches: [{ path: 'src/a.ts', line: 3, column: 7, text: 'const value = 1;' }],
        filesSearched: 4,
        truncated: false,
      }),
      '1 matching lines for "value" in 4 files searched:\nsrc/a.ts:3:7: const value = 1;',
    );
    assert.equal(
      renderSearchResults({ kind: 'search-results', query: 'zzz', matches: [], filesSearched: 4, truncated: false }),
      'No matches for "zzz" in 4 files.',
    );
  });
});
