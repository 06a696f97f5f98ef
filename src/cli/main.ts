#!/usr/bin/env node
import { main } from './run.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`crawler: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
