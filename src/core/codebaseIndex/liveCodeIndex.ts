import type { CodeIndex } from './codeIndexTypes';
import { disabledCodeIndex } from './disabledCodeIndex';

/**
 * A CodeIndex whose every call reaches the index running now (`current()`), for an owner that restarts its
 * index (the extension does on trust, folder and secret-policy changes) while engines built earlier still hold
 * what they were given. Holding the index itself, an engine would search a stopped worker until it was rebuilt,
 * and a where-is question would lose its definition cards. The owner disposes the real index; disposing this does nothing.
 */
export function liveCodeIndex(
  current: () => CodeIndex | undefined,
  onChange: (listener: () => void) => () => void,
  whyNone = 'the code index is not running for this folder',
): CodeIndex {
  const now = () => current() ?? disabledCodeIndex(whyNone);
  return {
    status: () => now().status(),
    onStatus: (listener) => onChange(() => listener(now().status())),
    update: (options) => now().update(options),
    rebuild: (options) => now().rebuild(options),
    refreshFiles: (paths) => now().refreshFiles(paths),
    findSymbol: (name, options) => now().findSymbol(name, options),
    searchCode: (query, options) => now().searchCode(query, options),
    repoMap: (options) => now().repoMap(options),
    questionContext: (question, options) => now().questionContext(question, options),
    structure: () => now().structure(),
    dispose: async () => undefined,
  };
}
