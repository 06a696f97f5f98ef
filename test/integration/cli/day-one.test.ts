import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, type Child, spawnCrawler, until } from '../../support/child.js';
import { crawler, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, opensearchUrl, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// What a new user meets first: a loopback seed refused by the address filter, a known seed run again,
// a seed that is not a URL, a mistyped index name, the embedded node's port taken, Ctrl-C through npx.

const site = new Site();
const HOST = '127.0.7.1';
const SLOW = '127.0.7.2';
const created: string[] = [];
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

beforeAll(async () => {
  buildCli();
  await site.start([HOST, SLOW]);
  for (const h of [HOST, SLOW]) site.route(h, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(HOST, '/', page('Home', ['/a']));
  site.route(HOST, '/a', page('A'));
  // Pages that take a while and link on and on: a crawl that is busy when it is signalled.
  for (let i = 0; i < 40; i++) {
    const answer = page(`slow ${i}`, [`/s${i + 1}`, `/s${i + 2}`]);
    site.route(SLOW, `/s${i}`, (n, req, res) => setTimeout(() => answer(n, req, res), 150));
  }
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(...created);
});

/** A config of fresh indices, the address filter as it is by default (loopback refused). */
function setup(label: string) {
  const names = uniqueIndexNames(label);
  created.push(names.status, names.content);
  const { 'http.filter.ipaddress.exclude': _, ...settings } = fastCrawlSettings(names);
  return { names, conf: writeConf(settings) };
}

type Line = Record<string, unknown>;
const json = (child: Child): Line[] =>
  child.stderr.flatMap((l) => {
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });

describe('a loopback seed', () => {
  it('is refused with one short line naming the setting that allows it; the run says every URL was refused; the same command with the setting fetches it', async () => {
    const { names, conf } = setup('day-one');
    const seed = `${site.origin(HOST)}/`;
    const first = spawnCrawler(['run', '--once', '--seed', seed, '--conf', conf]);
    expect(await first.exited).toBe(0);
    const transition = json(first).find(
      (l) => l.event === 'transition' && l.url === seed && l.status === 'ERROR',
    );
    expect(transition?.reason).toBe('blocked address (http.filter.ipaddress.exclude)');
    // One short line names the setting that allows exactly this address, and the run, whose every
    // URL was refused, says how to go on before it ends.
    const msgs = json(first).map((l) => l.msg);
    expect(msgs).toContain(`${HOST} refused: --set http.filter.ipaddress.allow=${HOST}`);
    expect(msgs).toContain(
      `every URL was refused by its address: run again with --set http.filter.ipaddress.allow=${HOST}`,
    );
    expect(site.hosts.get(HOST)!.count('/')).toBe(0);
    // The status names the setting that refused it.
    const refused = (await statusDocs(names.status)).get(seed);
    expect(refused?.status).toBe('ERROR');
    expect(refused?.metadata['error.cause']).toEqual(['http.filter.ipaddress.exclude']);

    // The hint followed as printed: the same command with the setting judges the seed again and fetches it.
    const allow = ['--set', `http.filter.ipaddress.allow=${HOST}`];
    const again = spawnCrawler(['run', '--once', '--seed', seed, '--conf', conf, ...allow]);
    expect(await again.exited).toBe(0);
    const againMsgs = json(again).map((l) => l.msg);
    expect(againMsgs).toContainEqual(
      `--seed ${seed} was refused by http.filter.ipaddress.exclude in an earlier run: judged again under this run's settings (due now)`,
    );
    expect(againMsgs.filter((m) => String(m).includes('is known already'))).toEqual([]);
    expect(againMsgs.filter((m) => String(m).startsWith('every URL was refused'))).toEqual([]);
    expect(site.hosts.get(HOST)!.count('/')).toBe(1);
    expect((await statusDocs(names.status)).get(seed)?.status).toBe('FETCHED');
  }, 150_000);

  it('a --seed that is not a URL fails the command (exit 2) before anything is done', async () => {
    // An unreachable cluster: the refusal comes before any connection (that would be exit 3).
    const r = await crawler(
      'run',
      '--once',
      '--seed',
      '127.0.0.5:8099/x',
      '--set',
      'http.agent.name=daybot',
      '--set',
      'opensearch.addresses=http://127.0.0.1:1',
    );
    expect(r).toMatchObject({
      code: 2,
      err: ['crawler run: --seed "127.0.0.5:8099/x" is not a URL: write it with http:// or https://'],
    });
  });
});

describe('crawl indices', () => {
  it('run says which indices it created, and names the existing status index a mistyped name is closest to', async () => {
    const { names, conf } = setup('typo');
    const init = await crawler('init', '--conf', conf);
    expect(init.code).toBe(0);
    const typo = `${names.status}x`;
    created.push(typo);
    const child = spawnCrawler([
      'run',
      '--once',
      '--conf',
      conf,
      '--set',
      `opensearch.status.index.name=${typo}`,
    ]);
    expect(await child.exited).toBe(0);
    const line = json(child).find((l) => String(l.msg).startsWith('created the index'));
    expect(line?.msg).toMatch(
      new RegExp(
        `^created the index "${typo}" \\(status\\): a new crawl, while this cluster holds other status indices: "${names.status}" \\(0 URLs\\)`,
      ),
    );
    expect(line?.msg).toMatch(/if you meant one of them, stop and set opensearch.status.index.name$/);
  }, 120_000);
});

/** A server on 127.0.0.1 (the embedded node's address) answering every request with `answer`. */
async function squatter(
  answer: (path: string) => { status: number; body: string; type: string },
): Promise<Server> {
  const server = createServer((req, res) => {
    const a = answer(req.url ?? '/');
    res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** Runs a command in this process with no cluster configured: the embedded node's address, on `port`. */
async function withEmbeddedPort<T>(port: number, run: () => Promise<T>): Promise<T> {
  const before = { port: process.env.OPENSEARCH_PORT, url: process.env.OPENSEARCH_URL };
  process.env.OPENSEARCH_PORT = String(port);
  delete process.env.OPENSEARCH_URL;
  try {
    return await run();
  } finally {
    for (const [k, v] of [
      ['OPENSEARCH_PORT', before.port],
      ['OPENSEARCH_URL', before.url],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('the embedded node', () => {
  it("with OPENSEARCH_PORT taken by someone else's OpenSearch or a web server, says what answers and how to point elsewhere", async () => {
    const other = await squatter((path) =>
      path.startsWith('/_cluster/health')
        ? { status: 200, body: '{"status":"green"}', type: 'application/json' }
        : {
            status: 200,
            body: '{"cluster_name":"someone-else","version":{"number":"2.11.0","distribution":"opensearch"}}',
            type: 'application/json',
          },
    );
    const web = await squatter(() => ({ status: 404, body: 'not here', type: 'text/plain' }));
    try {
      const p = portOf(other);
      expect(await withEmbeddedPort(p, () => crawler('stats'))).toMatchObject({
        code: 3,
        err: [
          `crawler stats: http://127.0.0.1:${p} is taken by OpenSearch 2.11.0, cluster "someone-else", which is not ` +
            "the crawler's embedded node. With no OPENSEARCH_URL the crawler uses only its own node there: set " +
            `OPENSEARCH_URL=http://127.0.0.1:${p} (or opensearch.addresses) to crawl into that cluster, or ` +
            `OPENSEARCH_PORT=${p + 1} to start the embedded node on another port`,
        ],
      });
      const w = portOf(web);
      const notOpenSearch = await withEmbeddedPort(w, () => crawler('stats'));
      expect(notOpenSearch.code).toBe(3);
      expect(notOpenSearch.err[0]).toMatch(
        new RegExp(
          `^crawler stats: http://127\\.0\\.0\\.1:${w} is taken by an HTTP server that is not OpenSearch \\(HTTP 404\\)\\.`,
        ),
      );
    } finally {
      other.close();
      web.close();
    }
  });

  it('is found on OPENSEARCH_PORT when it runs there, and crawler opensearch status|stop report on it', async () => {
    const port = Number(new URL(opensearchUrl()).port);
    const about = (await (await fetch(`${opensearchUrl()}/`)).json()) as { cluster_name: string };
    const names = uniqueIndexNames('embedded');
    const stats = await withEmbeddedPort(port, () =>
      crawler('stats', '--set', `opensearch.status.index.name=${names.status}`),
    );
    expect(stats.code).toBe(3);
    if (about.cluster_name === 'crawler-dev') {
      // The tests' node is scripts/opensearch's: the crawler's own, used as the embedded node.
      expect(stats.err[0]).toContain(`the index "${names.status}" does not exist`);
      const status = await withEmbeddedPort(port, () => crawler('opensearch', 'status'));
      expect(status.code).toBe(0);
      expect(status.out[0]).toMatch(
        new RegExp(`^running http://127\\.0\\.0\\.1:${port} health (green|yellow)`),
      );
    } else {
      expect(stats.err[0]).toContain('is taken by');
    }
    // A port where nothing runs.
    const free = await squatter(() => ({ status: 200, body: '', type: 'text/plain' }));
    const p = portOf(free);
    await new Promise((r) => free.close(r));
    expect(await withEmbeddedPort(p, () => crawler('opensearch', 'status'))).toMatchObject({
      code: 3,
      out: [`not running (http://127.0.0.1:${p})`],
    });
    expect(await withEmbeddedPort(p, () => crawler('opensearch', 'stop'))).toMatchObject({
      code: 0,
      out: [`OpenSearch on port ${p} was not running`],
    });
    expect((await crawler('opensearch', 'restart')).code).toBe(2);
  }, 60_000);
});

describe('Ctrl-C', () => {
  it('an idle continuous crawl (its only seed refused) says how to go on, and stops within a second of SIGINT', async () => {
    const { conf } = setup('idle-stop');
    const child = spawnCrawler(['run', '--conf', conf, '--seed', `${site.origin(HOST)}/idle`]);
    // Idle: the seed ended ERROR and nothing else is due; the run says what to do about it.
    const howToGoOn = `every URL was refused by its address: stop (Ctrl-C) and run again with --set http.filter.ipaddress.allow=${HOST}`;
    await until(() => json(child).some((l) => l.msg === howToGoOn), 60_000, 'the line saying how to go on');
    const signalled = Date.now();
    child.proc.kill('SIGINT');
    expect(await child.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(1000);
  }, 90_000);

  it('twice within a second (a terminal signals the process group, npx passes it on again) drains and exits 0', async () => {
    const { conf } = setup('ctrl-c');
    const seed = `${site.origin(SLOW)}/s0`;
    const allow = ['--set', 'http.filter.ipaddress.exclude=', '--seed', seed];
    const before = site.hosts.get(SLOW)!.requests.length;
    const child = spawnCrawler(['run', '--conf', conf, ...allow]);
    await until(() => site.hosts.get(SLOW)!.requests.length >= before + 3, 60_000, 'a few requests');
    child.proc.kill('SIGINT');
    child.proc.kill('SIGINT');
    expect(await child.exited).toBe(0);
    const msgs = json(child).map((l) => String(l.msg));
    expect(msgs.filter((m) => m.startsWith('SIGINT: finishing fetches in flight'))).toHaveLength(1);
    expect(msgs.some((m) => m.includes('exiting at once'))).toBe(false);
    expect(child.stdout.at(-1)).toMatch(/^fetched \d+ pages/);
  }, 90_000);

  it('on npx crawler run, signalled as a terminal does (its whole process group): drains and exits 0', async () => {
    const { conf } = setup('npx');
    const seed = `${site.origin(SLOW)}/s0`;
    const before = site.hosts.get(SLOW)!.requests.length;
    const npx = spawn(
      'npx',
      ['crawler', 'run', '--conf', conf, '--set', 'http.filter.ipaddress.exclude=', '--seed', seed],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_FORMAT: 'json' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, as a shell gives a foreground job.
        detached: true,
      },
    );
    const stderr: string[] = [];
    const stdout: string[] = [];
    npx.stderr!.on('data', (d) => stderr.push(String(d)));
    npx.stdout!.on('data', (d) => stdout.push(String(d)));
    let code: number | null | undefined;
    const exited = new Promise<number | null>((resolve) =>
      npx.on('close', (c) => {
        code = c;
        resolve(c);
      }),
    );
    // npx resolves the project's own bin (it links the project into its cache first), then the
    // crawl starts; an npx that gives up, or a crawl that never fetches, fails with what they said.
    const said = () => `npx's stderr ends:\n${stderr.join('').split('\n').slice(-25).join('\n')}`;
    await until(
      () => {
        if (code !== undefined) throw new Error(`npx exited ${code} before fetching; ${said()}`);
        return site.hosts.get(SLOW)!.requests.length >= before + 3;
      },
      240_000,
      'npx crawler run to fetch',
    ).catch((e: Error) => {
      throw new Error(`${e.message}; ${said()}`);
    });
    process.kill(-npx.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    const text = stderr.join('');
    expect(text).toContain('SIGINT: finishing fetches in flight');
    expect(text).not.toContain('exiting at once');
    expect(stdout.join('')).toMatch(/fetched \d+ pages/);
  }, 300_000);
});
