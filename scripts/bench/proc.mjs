// @ts-check
// Process measurements from /proc (Linux): CPU seconds of a pid, and the OpenSearch node's pid; and
// the numeric options of a bench script's own command line.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const TICKS = 100; // USER_HZ on Linux

/**
 * A line a child printed: the object when the line is a JSON object (pino logs, results), else the
 * text.
 * @typedef {string | Record<string, unknown>} Line
 */

/**
 * User+system CPU seconds a process has used so far; NaN when it cannot be read.
 * @param {number | undefined} pid
 * @returns {number}
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The pid of the local OpenSearch JVM (the embedded node or a tarball install), if any. On a machine
 * running several embedded nodes, the one of `port` (scripts/opensearch names its node folder
 * node-PORT), else of OPENSEARCH_URL's port, is preferred.
 * @param {string | number} [port]
 * @returns {number | undefined}
 */
export function findOpenSearchPid(port) {
  const want = port ?? /:(\d+)\/?$/.exec(process.env.OPENSEARCH_URL ?? '')?.[1] ?? '9200';
  /** @type {number | undefined} */
  let any;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!/java/.test(cmd) || !/opensearch/i.test(cmd)) continue;
      if (cmd.includes(`/node-${want}\0`)) return Number(entry);
      if (port === undefined) any ??= Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return any;
}

/**
 * Total CPU seconds of the machine (all cores, busy time), from /proc/stat.
 * @returns {number}
 */
export function machineBusySeconds() {
  const first = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const line = first.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line;
  return (user + nice + system + irq + softirq + steal) / TICKS;
}

/**
 * Starts `node args...`; resolves with its exit code and every stdout line parsed as JSON where it
 * is a JSON object (stderr lines likewise, for pino logs).
 * @param {readonly string[]} args
 * @param {{
 *   env?: Record<string, string>,
 *   onLine?: (stream: 'out' | 'err', line: Line) => void,
 *   cwd?: string,
 * }} [options]
 */
export function runNode(args, { env = {}, onLine, cwd } = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  /** @type {{ out: Line[], err: Line[] }} */
  const lines = { out: [], err: [] };
  for (const [name, stream] of /** @type {const} */ ([
    ['out', child.stdout],
    ['err', child.stderr],
  ])) {
    createInterface({ input: stream }).on('line', (line) => {
      /** @type {Line} */
      let value = line;
      try {
        const parsed = JSON.parse(line);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) value = parsed;
      } catch {
        // plain text
      }
      lines[name].push(value);
      onLine?.(name, value);
    });
  }
  /** @type {Promise<{ code: number | null, out: Line[], err: Line[] }>} */
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...lines }));
  });
  return { child, done };
}

/**
 * `--name N` of this script's command line as a number, or `fallback` when it is not given.
 * @param {string} name
 * @param {number} fallback
 */
export function numberOption(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}
