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

// Once the command has returned, nothing it left open (a socket to a cluster that went away) may
// keep the process alive for long; the timer does not delay a normal exit, and leaves pending log
// lines time to be written.
const EXIT_GRACE_MS = 10_000;

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  },
  (e: unknown) => {
    process.stderr.write(`crawler: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
