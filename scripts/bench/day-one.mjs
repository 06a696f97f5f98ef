// Day one as a new user meets it (issue 46's "Done when"), timed in machine time: a fresh clone of
// this checkout's HEAD, the README's Quick start line (`npm ci && npx crawler run --seed URL --set
// http.agent.name=mybot`) on a site served on loopback (the Python 3.11 docs by default), which is
// refused with a hint; Ctrl-C; the same command with the hint added as printed; until the first
// FETCHED document is in the status index. The machine is shared, so besides wall time it adds up the
// CPU time of every process of the walk: git, npm, the crawler and what it starts (the Maven build of
// the embedded node, the node's JVM), from /proc; the loopback site and this script are not counted.
//
//   OPENSEARCH_PORT=9560 OPENSEARCH_HEAP=768m node scripts/bench/day-one.mjs [--dir /tmp/day-one]
//     [--site /tmp/debdoc/root/usr/share/doc/python3.11-doc/html]
//
// OPENSEARCH_PORT is where the embedded node starts (nothing may answer there before); it is stopped
// at the end (`npx crawler opensearch stop`). Prints one JSON line.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/day-one' },
    site: { type: 'string', default: '/tmp/debdoc/root/usr/share/doc/python3.11-doc/html' },
    timeout: { type: 'string', default: '600' },
  },
});
const port = Number(process.env.OPENSEARCH_PORT ?? 9200);
const timeoutMs = Number(opt.timeout) * 1000;
const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * Fields of /proc/PID/stat after the command name: [state, ppid, ...]; undefined when gone.
 * @param {number | string} pid
 * @returns {string[] | undefined}
 */
function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
/** CPU seconds of a process and of its children it has waited for (utime+stime+cutime+cstime). */
const cpuOf = (/** @type {string[]} */ f) =>
  (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;

/** CPU seconds of every descendant of this process, live or reaped, and of the embedded node's JVM. */
function machineCpu() {
  /** @type {Map<number, number>} */
  const parent = new Map();
  /** @type {Map<number, string[]>} */
  const fields = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const f = stat(d);
    if (!f) continue;
    parent.set(Number(d), Number(f[1]));
    fields.set(Number(d), f);
  }
  const isDescendant = (/** @type {number} */ pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) return true;
    return false;
  };
  const self = stat(process.pid) ?? [];
  let total = (Number(self[13]) + Number(self[14])) / TICK; // reaped children
  for (const [pid, f] of fields) if (isDescendant(pid)) total += cpuOf(f);
  const pidFile = join(opt.dir, `.opensearch/node-${port}/opensearch.pid`);
  const jvm = existsSync(pidFile) ? stat(readFileSync(pidFile, 'utf8').trim()) : undefined;
  // The JVM is started in the background and left to init: not a descendant any more.
  const jvmCpu = jvm && !isDescendant(Number(readFileSync(pidFile, 'utf8').trim())) ? cpuOf(jvm) : 0;
  return { total: total + jvmCpu, jvm: jvmCpu };
}

/** @param {string} cmd @param {string[]} args @param {string} [cwd] */
function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
}

/** The loopback site: files of `opt.site`, as a static server a person would start. */
/** @type {Record<string, string>} */
const TYPES = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.txt': 'text/plain' };
const site = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
    /^(\.\.[/\\])+/,
    '',
  );
  let file = join(opt.site, path);
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) return res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => site.listen(0, '127.0.0.1', () => r(undefined)));
const seed = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (site.address()).port}/`;
/** @type {NodeJS.ProcessEnv} */
const env = { ...process.env, OPENSEARCH_PORT: String(port) };
delete env.OPENSEARCH_URL;

/**
 * Starts `npx crawler ARGS` in its own process group and resolves when `until(output)` holds.
 * @param {string[]} args
 * @param {(out: string) => unknown} until
 */
function crawler(args, until) {
  const child = spawn('npx', ['crawler', ...args], { cwd: opt.dir, env, detached: true });
  let out = '';
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const seen = new Promise((resolve, reject) => {
    /** @type {NodeJS.Timeout | undefined} */
    let poll;
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`timed out; output:\n${out.slice(-3000)}`));
    }, timeoutMs);
    const check = async () => {
      const v = await until(out);
      if (v) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(v);
      }
    };
    for (const s of [child.stdout, child.stderr])
      s.on('data', (d) => {
        out += d;
      });
    poll = setInterval(() => void check().catch(() => {}), 100);
    exited.then(() => clearInterval(poll));
  });
  /** Ctrl-C as a terminal sends it: to the whole process group. */
  const interrupt = async () => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
    return exited;
  };
  return { seen, interrupt, output: () => out };
}

const fetchedCount = async () => {
  const res = await fetch(`http://127.0.0.1:${port}/status/_count?q=status:FETCHED`).catch(() => undefined);
  return res?.ok ? /** @type {{ count: number }} */ (await res.json()).count : 0;
};

rmSync(opt.dir, { recursive: true, force: true });
const head = spawnSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const t0 = performance.now();
const at = () => ({ wallS: (performance.now() - t0) / 1000, cpuS: machineCpu().total });
run('git', ['clone', '--quiet', '--no-hardlinks', root, opt.dir]);
run('git', ['checkout', '--quiet', head], opt.dir);
const cloned = at();
run('npm', ['ci'], opt.dir);
const installed = at();
const line = ['run', '--seed', seed, '--set', 'http.agent.name=mybot'];
// The refusal's line names the setting; the run then says every URL was refused and how to go on.
const HINT = /refused: --set (http\.filter\.ipaddress\.allow=[^\s"\\]+)/;
const first = crawler(
  line,
  (/** @type {string} */ out) => /every URL was refused/.test(out) && HINT.exec(out)?.[1],
);
const hint = await first.seen;
const refused = at();
const firstExit = await first.interrupt();
const goOn = /every URL was refused[^"\n]*/.exec(first.output())?.[0];
const second = crawler([...line, '--set', hint], async () => (await fetchedCount()) > 0);
await second.seen;
const fetched = at();
const jvmAtFetched = machineCpu().jvm;
const secondExit = await second.interrupt();
site.close();
spawnSync('npx', ['crawler', 'opensearch', 'stop'], { cwd: opt.dir, env, stdio: 'ignore' });
console.log(
  JSON.stringify({
    head,
    seed,
    hint,
    goOn,
    exits: [firstExit, secondExit],
    cloned,
    installed,
    refused,
    fetched,
    jvmCpuAtFetchedS: jvmAtFetched,
  }),
);
