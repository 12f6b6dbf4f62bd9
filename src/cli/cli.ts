#!/usr/bin/env node
import { exitQuietlyOnBrokenPipe } from './brokenPipe';
import { main } from './main';

exitQuietlyOnBrokenPipe();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`codewiki: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
