import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let built = false;

/**
 * Makes sure dist/ holds the code under test for child processes. The integration tests' global
 * set-up calls it once for the whole run (and says so in CRAWLER_TEST_DIST_BUILT); a file run some
 * other way builds it itself.
 */
export function buildCli(): void {
  if (built || process.env.CRAWLER_TEST_DIST_BUILT === '1') return;
  execFileSync(process.execPath, ['scripts/build-dist.mjs', '--force'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

export interface Child {
  readonly proc: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Peak resident set size (the kernel's VmHWM) at the last sample of `sampleRss`, bytes. */
  peakRss: number;
  /** The exit code (null when killed by a signal), once every output line has been read. */
  exited: Promise<number | null>;
  /**
   * Starts reading the process's peak RSS from /proc/<pid>/status every `ms`. The kernel keeps the
   * peak itself, so a short spike between two samples is not missed.
   */
  sampleRss(ms?: number): () => void;
}

/**
 * Runs `crawler <args>` as a separate process (JSON logs on stderr). The child finds OpenSearch and
 * Tika where its conf says (the tests write the addresses there, or a proxy's), never by the
 * developer's OPENSEARCH_URL or TIKA_URL, which would override the conf (as in CI, where neither
 * is set); a test's own `env` may still set them.
 */
export function spawnCrawler(args: readonly string[], env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: 'json', OPENSEARCH_URL: '', TIKA_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  // Whole lines: a chunk of output can end in the middle of a JSON log line.
  for (const [stream, lines] of [
    [proc.stdout!, stdout],
    [proc.stderr!, stderr],
  ] as const) {
    createInterface({ input: stream }).on('line', (l) => {
      if (l) lines.push(l);
    });
  }
  const child: Child = {
    proc,
    stdout,
    stderr,
    peakRss: 0,
    // 'close' comes after the output streams ended, so the last lines are in.
    exited: new Promise((resolve) => proc.on('close', (code) => resolve(code))),
    sampleRss(ms = 200) {
      const read = () => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
          if (m) child.peakRss = Math.max(child.peakRss, Number(m[1]) * 1024);
        } catch {
          // The process has exited.
        }
      };
      read();
      const t = setInterval(read, ms);
      return () => clearInterval(t);
    },
  };
  return child;
}

/** Resolves when `predicate` holds, polling; rejects after `timeoutMs`. */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
