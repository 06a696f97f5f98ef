// Process measurements from /proc (Linux): CPU seconds of a pid, and the OpenSearch node's pid.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const TICKS = 100; // USER_HZ on Linux

/** User+system CPU seconds a process has used so far; NaN when it cannot be read. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** The pid of the local OpenSearch JVM (the embedded node or a tarball install), if any. */
export function findOpenSearchPid() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/java/.test(cmd) && /opensearch/i.test(cmd)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/** Total CPU seconds of the machine (all cores, busy time), from /proc/stat. */
export function machineBusySeconds() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = line;
  return (user + nice + system + irq + softirq + steal) / TICKS;
}

/**
 * Starts `node args...`; resolves with its exit code and every stdout line parsed as JSON where it
 * is JSON (stderr lines likewise, for pino logs).
 */
export function runNode(args, { env = {}, onLine, cwd } = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = { out: [], err: [] };
  for (const [name, stream] of [
    ['out', child.stdout],
    ['err', child.stderr],
  ]) {
    createInterface({ input: stream }).on('line', (line) => {
      let value = line;
      try {
        value = JSON.parse(line);
      } catch {
        // plain text
      }
      lines[name].push(value);
      onLine?.(name, value);
    });
  }
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...lines }));
  });
  return { child, done };
}
