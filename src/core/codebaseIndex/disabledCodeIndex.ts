import type { CodeIndex, IndexStatus } from './codeIndexTypes';

/**
 * An index that is switched off (`codewiki.index.enabled: false`, or no index for this folder): searches
 * find nothing, the tools say why, and the agent falls back to the file layout without waiting.
 */
export function disabledCodeIndex(reason: string): CodeIndex {
  const status: IndexStatus = { state: 'disabled', indexedFiles: 0, totalFiles: 0, symbols: 0, error: reason };
  return {
    status: () => status,
    onStatus: () => () => undefined,
    update: async () => status,
    rebuild: async () => status,
    refreshFiles: async () => undefined,
    findSymbol: async () => [],
    searchCode: async () => [],
    repoMap: async () => ({ text: '', files: 0, symbols: 0, tokens: 0 }),
    questionContext: async () => ({ text: '', tokens: 0, definitions: [], hits: [] }),
    structure: async () => ({ files: [], edges: [], imports: [] }),
    dispose: async () => undefined,
  };
}
