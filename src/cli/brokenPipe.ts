import { EXIT } from './cliErrors';

/**
 * `codewiki tools | head -1`: once `head` has its line it closes the pipe, and the next write
 * fails with EPIPE. Unhandled, that error crashed Node with a stack trace whenever the output
 * was still being written when the reader left (a race, so "sometimes"). The reader has what it
 * wanted, so the command stops at once and quietly, with status 0 (the same in every run, however
 * much was written before the reader left).
 * Other stream errors are reported in one line rather than a stack.
 */
export function exitQuietlyOnBrokenPipe(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(EXIT.ok);
      if (stream !== process.stderr) process.stderr.write(`codewiki: cannot write output: ${error.message}\n`);
      process.exit(EXIT.failed);
    });
  }
}
