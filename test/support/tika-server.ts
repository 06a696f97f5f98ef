import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);
/** The tests' own Tika port, as the tests' OpenSearch node has 9299 (test-node.ts). */
export const TIKA_TEST_PORT = '9398';
export const TIKA_SCRIPT = new URL('../../scripts/tika', import.meta.url).pathname;

async function tikaAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) });
    return res.ok && (await res.text()).startsWith('Apache Tika');
  } catch {
    return false;
  }
}

/**
 * The Tika server the integration tests share: TIKA_URL when set; else the embedded server
 * (scripts/tika) on TIKA_TEST_PORT (default 9398: never the 9998 of the crawler's own embedded
 * Tika, which a user's crawls may be using), started here in the background, off the critical
 * path (test files wait for it in test/support/tika.ts), and stopped at the end unless it was
 * already running or TIKA_KEEP=1 (or OPENSEARCH_KEEP=1). Returns the teardown.
 */
export function startSharedTika(project: TestProject): () => Promise<void> {
  // Tika JVMs of the tests (this shared one, and those the crawler starts in the embedded tests) start
  // with less JIT work: a third less CPU to start on a busy machine; the tests time nothing of Tika's.
  process.env.TIKA_JAVA_OPTS ??= '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
  const given = process.env.TIKA_URL;
  if (given) {
    project.provide('tikaUrl', given.replace(/\/$/, ''));
    return async () => {};
  }
  const port = process.env.TIKA_TEST_PORT ?? TIKA_TEST_PORT;
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, TIKA_PORT: port, TIKA_HEAP: process.env.TIKA_HEAP ?? '512m' };
  project.provide('tikaUrl', url);
  const starting = (async () => {
    if (await tikaAnswers(url)) return false;
    // A failure is reported by the test files that need Tika (they run scripts/tika start too).
    await run(TIKA_SCRIPT, ['start'], { env, timeout: 600_000 }).catch(() => undefined);
    return true;
  })();
  return async () => {
    const started = await starting;
    const keep = process.env.TIKA_KEEP === '1' || process.env.OPENSEARCH_KEEP === '1';
    if (started && !keep) await run(TIKA_SCRIPT, ['stop'], { env, timeout: 60_000 }).catch(() => undefined);
  };
}
