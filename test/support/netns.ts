import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/*
 * Crawler "machines" for the tests of an elastic crawl: each a network namespace (`ip netns`) with a
 * veth pair to a bridge in the test's own namespace, its own address in a /24 of 198.18.0.0/15 and its own
 * host name (a UTS namespace). OpenSearch and the test web are reached through the bridge: the web
 * listens on bridge addresses, and OpenSearch (on loopback) through a proxy on the bridge (os-proxy.ts). A
 * partition is the machine's link set down. Needs root; everything made is removed by `teardown`
 * (also left-overs of an earlier run that died).
 */

// Names and addresses are the run's own, so that two runs side by side (two checkouts on one machine)
// do not tear down each other's: ELASTIC_NETNS_PREFIX (a few letters) and ELASTIC_NETNS_NET (the
// first three octets of a /24 inside 198.18.0.0/15).
const PREFIX = process.env.ELASTIC_NETNS_PREFIX || 'h45';
const BRIDGE = `${PREFIX}br0`;
export const NET = process.env.ELASTIC_NETNS_NET || '198.18.45';
if (!/^[a-z][a-z0-9]{0,4}$/i.test(PREFIX) || !/^198\.1[89]\.\d{1,3}$/.test(NET)) {
  throw new Error(
    `ELASTIC_NETNS_PREFIX "${PREFIX}" (1-5 letters or digits) or ELASTIC_NETNS_NET "${NET}" (198.18.x or 198.19.x) is not usable`,
  );
}
/** The test's side of the bridge: where machines find OpenSearch. */
export const GATEWAY = `${NET}.1`;
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
const tryIp = (...args: string[]) => {
  try {
    ip(...args);
  } catch {
    // Not there: nothing to remove.
  }
};

/** True when this process may make network namespaces (root with `ip netns`). */
export function canMakeMachines(): boolean {
  try {
    return process.getuid?.() === 0 && execFileSync('ip', ['netns', 'list']) !== undefined;
  } catch {
    return false;
  }
}

/** Removes every namespace and link of this harness. */
export function teardown(): void {
  const list = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0];
    if (name?.startsWith(`${PREFIX}m`)) tryIp('netns', 'delete', name);
  }
  tryIp('link', 'delete', BRIDGE);
}

/** The bridge, with the gateway and the web's host addresses on it. */
export function makeBridge(webAddresses: readonly string[]): void {
  teardown();
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${GATEWAY}/24`, 'dev', BRIDGE);
  for (const a of webAddresses) ip('addr', 'add', `${a}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
}

export interface Machine {
  readonly name: string;
  readonly address: string;
  /** Cuts the machine off (its link down), or heals it. */
  partition(cut: boolean): void;
}

/** Machine `n` (1..): namespace <prefix>m<n>, address <net>.10<n>. */
export function makeMachine(n: number): Machine {
  const name = `${PREFIX}m${n}`;
  const outside = `${PREFIX}v${n}`;
  const address = `${NET}.${100 + n}`;
  ip('netns', 'add', name);
  ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name);
  ip('link', 'set', outside, 'master', BRIDGE, 'up');
  ip('-n', name, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
  ip('-n', name, 'link', 'set', 'eth0', 'up');
  ip('-n', name, 'link', 'set', 'lo', 'up');
  return {
    name,
    address,
    partition(cut) {
      ip('link', 'set', outside, cut ? 'down' : 'up');
    },
  };
}

export interface MachineCrawler {
  readonly proc: ChildProcess;
  readonly stderr: string[];
  readonly exited: Promise<number | null>;
}

/** `crawler <args>` on a machine, under its own host name. */
export function crawlOn(machine: Machine, args: readonly string[]): MachineCrawler {
  const node = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const proc = spawn(
    'ip',
    ['netns', 'exec', machine.name, 'unshare', '--uts', 'sh', '-c', `hostname ${machine.name}; exec ${node}`],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_FORMAT: 'json', OPENSEARCH_URL: '', TIKA_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => {
    if (l) stderr.push(l);
  });
  return { proc, stderr, exited: new Promise((resolve) => proc.on('close', (code) => resolve(code))) };
}
