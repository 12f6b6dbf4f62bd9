import { readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Resolves once the file at `path` holds what `holds` asks for, judged again at every change the file system reports
 * in its folder: a test waits for the write itself, not for a pause long enough to cover it. `timeoutMs` guards
 * against a write that never comes (a failure, not a timing assertion).
 */
export function untilFileHolds(path: string, holds: (text: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(path));
    const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), timeoutMs);
    function finish(error?: Error): void {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    }
    const check = () => {
      let held: boolean;
      try {
        held = holds(readFileSync(path, 'utf8'));
      } catch {
        return; // not there yet, or not yet what `holds` can read: the next change is judged again
      }
      if (held) finish();
    };
    watcher.on('change', (_event, name) => {
      if (name === null || String(name) === basename(path)) check();
    });
    watcher.on('error', (error) => finish(error));
    check(); // after the watcher started, so a write between the two is not missed
  });
}
