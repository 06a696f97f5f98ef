import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { requireChromium } from './support.js';

const run = promisify(execFile);
const DIST = pathToFileURL(new URL('../../../dist', import.meta.url).pathname).href;
const CHILD = new URL('./sandbox-child.mjs', import.meta.url).pathname;
const ROOT = process.getuid?.() === 0;
// The other user cannot write to the worktree: its home and browser profiles go here.
const home = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
chmodSync(home, 0o777);

interface Report {
  uid: number;
  sandboxArgs: string[];
  warnings: string[];
  text: string;
  rendererSeccomp: string[];
}

/**
 * Renders one page through BrowserPool in a child process: as `nobody` (runuser) when this test runs
 * as root, else as this ordinary user; as this process's user with `asRoot`.
 */
async function launch(sandbox: string, asRoot = false): Promise<Report> {
  const args = [CHILD, DIST, requireChromium(), sandbox, asRoot && !ROOT ? 'fake-root' : ''];
  const env = { ...process.env, HOME: home, TMPDIR: home };
  const { stdout } =
    ROOT && !asRoot
      ? await run('runuser', ['-u', 'nobody', '--', process.execPath, ...args], { env, timeout: 60_000 })
      : await run(process.execPath, args, { env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Report;
}

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("Chromium's sandbox (playwright.sandbox)", () => {
  it('is on for an ordinary user: no --no-sandbox, no warning, renderers under seccomp', async () => {
    const r = await launch('auto');
    expect(r.uid).not.toBe(0);
    expect(r.text).toBe('rendered');
    expect(r.sandboxArgs).not.toContain('--no-sandbox');
    expect(r.warnings).toEqual([]);
    // Seccomp mode 2 (filter): the sandbox is in force, not merely asked for.
    expect(r.rendererSeccomp.length).toBeGreaterThan(0);
    for (const mode of r.rendererSeccomp) expect(mode).toBe('2');
  }, 90_000);

  it('is off as root, with one warning saying why and how to have it', async () => {
    const r = await launch('auto', true);
    expect(r.text).toBe('rendered');
    expect(r.sandboxArgs).toContain('--no-sandbox');
    expect(r.warnings).toEqual([
      'the browser runs without its sandbox (the crawler runs as root, where Chromium refuses its sandbox): ' +
        "a page's scripts are contained only by the renderer process; run the crawler as an ordinary user " +
        '(Docker: USER) to have it',
    ]);
  }, 90_000);

  it('is off when the key says off, even for an ordinary user, with the warning', async () => {
    const r = await launch('off');
    expect(r.uid).not.toBe(0);
    expect(r.sandboxArgs).toContain('--no-sandbox');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('(playwright.sandbox is off)');
  }, 90_000);
});
