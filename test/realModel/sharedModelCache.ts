import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where `npm test`'s pretest (scripts/ensure-test-deps.sh) built llama-server and fetched the pinned weights. */
export const MODEL_CACHE = process.env.CODEWIKI_CACHE_DIR || join(process.env.HOME || homedir(), '.cache', 'codewiki');

/**
 * A throwaway CodeWiki cache folder that shares the built llama-server and the verified weights with the real one
 * (symlinks), so serve.sh starts in seconds, while everything a run writes (the local-server record and leases,
 * llama-server's log, saved prompt caches, the code index) stays in the test's own folder: a developer's running
 * local model is neither reused nor stopped by a test.
 */
export function cacheSharingModels(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-model-cache-'));
  for (const shared of ['llama.cpp', 'models']) symlinkSync(join(MODEL_CACHE, shared), join(dir, shared));
  mkdirSync(join(dir, 'locks'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
