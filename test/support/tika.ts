import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/tika', import.meta.url).pathname;

/**
 * The shared Tika server's URL, once it answers. The global set-up starts it in the background;
 * `scripts/tika start` waits for that start (or starts it, or fails with the reason: a test that
 * needs Tika fails, never skips, when it cannot run).
 */
export async function sharedTika(): Promise<string> {
  const url = inject('tikaUrl');
  if (process.env.TIKA_URL) return url;
  const port = new URL(url).port;
  await run(SCRIPT, ['start'], { env: { ...process.env, TIKA_PORT: port }, timeout: 600_000 });
  return url;
}
