import { withAuthorization } from './authorizedFetch';

/** What llama-server did with a saved prompt cache: how many tokens, in how long. */
export interface SlotTransfer {
  tokens: number;
  ms: number;
}

/**
 * A server's prompt cache on disk: llama-server started with `--slot-save-path` (CodeWiki's serve.sh does) saves
 * a slot's computed prompt to a file and restores it later, so a prompt computed once (the agent's system prompt
 * and tools: thousands of tokens, minutes on a CPU) survives a restart. Both calls answer undefined when the
 * server cannot (not llama-server, no save path, no such file): the cache is an optimisation, never a requirement.
 */
export interface PromptCacheSlots {
  /** Whether the server is llama-server, whose prompt cache the rest is about (asked once). */
  available(): Promise<boolean>;
  /**
   * Whether the server runs on this machine (a loopback address): only such a server is sent what the user has
   * not sent yet (drafts computed ahead, draftWarmup.ts), since nothing then leaves the machine.
   */
  readonly onThisMachine: boolean;
  restore(file: string, signal?: AbortSignal): Promise<SlotTransfer | undefined>;
  save(file: string, signal?: AbortSignal): Promise<SlotTransfer | undefined>;
}

/** Slot 0: serve.sh runs one slot (`-np 1`), so the slot that answered the last request is the one to save. */
const SLOT = 0;

/** `available`: the endpoint's llama-server check, shared with its chat models (OpenAiModelProvider). */
export function llamaServerSlots(baseURL: string, apiKey: string | undefined, available: () => Promise<boolean>): PromptCacheSlots {
  const authorized = withAuthorization(apiKey, (input, init) => fetch(input, init));
  async function act(action: 'save' | 'restore', file: string, signal?: AbortSignal): Promise<SlotTransfer | undefined> {
    if (!/^[\w.-]+\.bin$/.test(file)) throw new Error(`not a slot file name: ${file}`);
    if (!(await available())) return undefined;
    try {
      const response = await authorized(new URL(`/slots/${SLOT}?action=${action}`, baseURL).href, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: file }),
        signal,
        redirect: 'error',
      });
      if (!response.ok) {
        await response.body?.cancel();
        return undefined;
      }
      const body = (await response.json()) as { n_saved?: number; n_restored?: number; timings?: { save_ms?: number; restore_ms?: number } };
      const tokens = action === 'save' ? body.n_saved : body.n_restored;
      const ms = action === 'save' ? body.timings?.save_ms : body.timings?.restore_ms;
      return typeof tokens === 'number' ? { tokens, ms: typeof ms === 'number' ? ms : 0 } : undefined;
    } catch (error) {
      if (signal?.aborted) throw error;
      return undefined;
    }
  }
  return {
    available,
    onThisMachine: isLoopback(baseURL),
    restore: (file, signal) => act('restore', file, signal),
    save: (file, signal) => act('save', file, signal),
  };
}

/**
 * 127.0.0.0/8, ::1 or localhost; anything unparsable is not. Not `*.localhost`: the system resolver may ask DNS
 * for those.
 */
export function isLoopback(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}
