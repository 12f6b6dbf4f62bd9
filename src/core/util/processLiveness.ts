import { hostname } from 'node:os';

/**
 * Who wrote a lock or temp file, and whether that writer can still be at work. Only a process on this
 * machine can be checked; a name from another host (a shared network folder) counts as alive, so it is
 * judged by age alone.
 */
export function isProcessAlive(pid: number, host = hostname()): boolean {
  if (host !== hostname()) return true;
  try {
    process.kill(pid, 0); // signal 0 only checks that the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: it exists, it is just not ours
  }
}
