#!/usr/bin/env node
import { main } from './run.js';

// A reader that went away (`crawler stats | head -1`) ends the command quietly with exit 0, as other
// Unix tools do; with stderr gone only the logs are lost, and the command goes on.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.stderr.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`crawler: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
