import { readFileSync } from 'node:fs';

/** `playwright.sandbox`: auto = Chromium's sandbox whenever it can work here; on; off. */
export type SandboxMode = 'auto' | 'on' | 'off';

/** What the decision reads of the machine; tests give their own. */
export interface SandboxProbe {
  /** The effective user id; undefined where there is none (Windows). */
  readonly uid: number | undefined;
  /** A file's text, or undefined when it cannot be read. */
  readonly read: (path: string) => string | undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export const SYSTEM_PROBE: SandboxProbe = { uid: process.getuid?.(), read: readText };

/**
 * Why Chromium's sandbox cannot work in this process, or undefined when nothing says it cannot.
 * Chromium refuses to start sandboxed as root, and its sandbox needs unprivileged user namespaces
 * (the setuid helper Chrome once shipped is gone from Debian's and Playwright's builds).
 */
export function sandboxUnavailable(probe: SandboxProbe = SYSTEM_PROBE): string | undefined {
  if (probe.uid === 0) return 'the crawler runs as root, where Chromium refuses its sandbox';
  if (probe.read('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return 'unprivileged user namespaces are off (/proc/sys/kernel/unprivileged_userns_clone is 0)';
  }
  if (probe.read('/proc/sys/user/max_user_namespaces') === '0') {
    return 'user namespaces are off (/proc/sys/user/max_user_namespaces is 0)';
  }
  return undefined;
}

/**
 * Whether to launch Chromium with its sandbox, and when not, why (for the one warning). `on` asks
 * for it whatever the machine says (a launch that then fails says so); `off` never.
 */
export function sandboxDecision(
  mode: SandboxMode,
  probe: SandboxProbe = SYSTEM_PROBE,
): { sandbox: true } | { sandbox: false; why: string } {
  if (mode === 'on') return { sandbox: true };
  if (mode === 'off') return { sandbox: false, why: 'playwright.sandbox is off' };
  const why = sandboxUnavailable(probe);
  return why === undefined ? { sandbox: true } : { sandbox: false, why };
}

/** The warning logged once when the browser runs without its sandbox. */
export function noSandboxWarning(why: string): string {
  return (
    `the browser runs without its sandbox (${why}): a page's scripts are contained only by the ` +
    'renderer process; run the crawler as an ordinary user (Docker: USER) to have it'
  );
}
