import { readdirSync, readFileSync } from 'node:fs';

/*
 * The browser's processes, read from /proc (Linux): Playwright does not give the process of a
 * launched browser, and the crawler needs it to kill a hung one and to report its memory.
 */

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  /** Resident memory, bytes. */
  readonly rss: number;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may hold spaces: fields start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const pages = Number(fields[21]);
    return { pid, ppid, rss: pages * 4096 };
  } catch {
    return undefined;
  }
}

function allProcs(): Proc[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: Proc[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const p = readProc(Number(n));
    if (p) out.push(p);
  }
  return out;
}

/** The process of this Node process's children whose command line holds `marker`; undefined if none. */
export function childWithArg(marker: string, parent = process.pid): number | undefined {
  for (const p of allProcs()) {
    if (p.ppid !== parent) continue;
    try {
      const cmdline = readFileSync(`/proc/${p.pid}/cmdline`, 'latin1');
      if (cmdline.includes(marker)) return p.pid;
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/**
 * CPU this process's children used, once they ended and were waited for (cutime + cstime of
 * /proc/self/stat), ms: after the browser is closed, its whole CPU (its own renderer and GPU
 * processes included, which it waited for). 0 when it cannot be read.
 */
export function endedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5), counted from the state field (3): indexes 13 and 14 here.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}
