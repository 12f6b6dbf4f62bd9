#!/usr/bin/env node
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`codewiki: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
