// Launches a browser through the crawler's BrowserPool (from dist/), renders one page and prints, as
// one JSON line, what the sandbox test checks: the user, the browser's sandbox switches, the
// warnings logged, the page's text and the seccomp mode of the browser's renderer processes.
// Arguments: dist directory (file URL), Chromium, playwright.sandbox, and "fake-root" to decide as
// if the process were root. Run by sandbox.test.ts, possibly as another user (runuser).
import { readdirSync, readFileSync } from 'node:fs';

const [dist, executable, sandbox, fake] = process.argv.slice(2);
const { BrowserPool } = await import(`${dist}/render/browser.js`);
const { SYSTEM_PROBE } = await import(`${dist}/render/sandbox.js`);
const warnings = [];
const noop = () => {};
const log = {
  warn: (_o, m) => warnings.push(m),
  error: (_o, m) => warnings.push(`error: ${m}`),
  info: noop,
  debug: noop,
  trace: noop,
  child: () => log,
};
const probe = fake === 'fake-root' ? { ...SYSTEM_PROBE, uid: 0 } : SYSTEM_PROBE;
const options = { executable, cdpUrl: '', remoteWs: '', userAgent: 'sandboxtest', sandbox };
const pool = new BrowserPool(
  { ...options, pagesMax: 1, pageMaxRenders: 10, browserMaxRenders: 10 },
  log,
  probe,
);
const slot = await pool.acquire();
await slot.page.setContent('<p>rendered</p>');
const text = await slot.page.textContent('p');

function proc(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    return {
      pid,
      ppid: Number(/PPid:\s*(\d+)/.exec(status)?.[1]),
      seccomp: /Seccomp:\s*(\d)/.exec(status)?.[1],
      cmdline,
    };
  } catch {
    return undefined;
  }
}
const all = readdirSync('/proc')
  .filter((n) => /^\d+$/.test(n))
  .map((n) => proc(Number(n)))
  .filter(Boolean);
const tree = new Set([pool.pid]);
for (let grew = true; grew; ) {
  grew = false;
  for (const p of all) {
    if (tree.has(p.ppid) && !tree.has(p.pid)) {
      tree.add(p.pid);
      grew = true;
    }
  }
}
const renderers = all.filter((p) => tree.has(p.pid) && p.cmdline.join(' ').includes('--type=renderer'));
const browserArgs = all.find((p) => p.pid === pool.pid)?.cmdline ?? [];
pool.release(slot, true);
await pool.close();
console.log(
  JSON.stringify({
    uid: process.getuid(),
    sandboxArgs: browserArgs.filter((a) => a.includes('sandbox')),
    warnings,
    text,
    rendererSeccomp: renderers.map((r) => r.seccomp),
  }),
);
