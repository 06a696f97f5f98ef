import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, spawnCrawler, until } from '../../support/child.js';
import { fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { page, robots, Site } from '../../support/site.js';

// Ctrl-C on a busy crawl of a polite host: the URLs waiting in its queue are not fetched one host
// delay after another before the process exits; they are given back unchanged and come back when due.

const names = uniqueIndexNames('stop');
const site = new Site();
const H = '127.0.46.9';
const LINKS = Array.from({ length: 10 }, (_, i) => `/p${i}`);

beforeAll(async () => {
  buildCli();
  await site.start([H]);
  site.route(H, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  site.route(H, '/', page('Home', LINKS));
  for (const p of LINKS) site.route(H, p, page(p));
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

describe('SIGINT during a crawl with URLs queued', () => {
  it('starts no queued fetch, lets the one in flight finish, leaves the queued URLs DISCOVERED and exits 0', async () => {
    // One fetch every 3 s: the 10 links wait in the host's queue.
    const conf = writeConf({ ...fastCrawlSettings(names), 'fetcher.server.delay': 3 });
    const seed = `${site.origin(H)}/`;
    const child = spawnCrawler(['run', '--conf', conf, '--seed', seed]);
    const host = site.hosts.get(H)!;
    // The home page and the first link fetched: the other links are queued, waiting for the delay.
    await until(() => LINKS.some((p) => host.count(p) > 0), 60_000, 'the first link fetched');
    const requests = host.requests.length;
    const signalled = Date.now();
    child.proc.kill('SIGINT');
    expect(await child.exited).toBe(0);
    // Before, the queue was worked through at the host's pace: 9 x 3 s.
    expect(Date.now() - signalled).toBeLessThan(6_000);
    expect(host.requests.length).toBe(requests);
    const docs = await statusDocs(names.status);
    const fetched = LINKS.filter((p) => docs.get(`${seed.slice(0, -1)}${p}`)?.status === 'FETCHED');
    const waiting = LINKS.filter((p) => docs.get(`${seed.slice(0, -1)}${p}`)?.status === 'DISCOVERED');
    expect(fetched.length).toBe(1);
    expect(waiting.length).toBe(9);
    // Given back unchanged: still due, fetched by the next run.
    for (const p of waiting)
      expect(Date.parse(docs.get(`${seed.slice(0, -1)}${p}`)!.nextFetchDate!)).toBeLessThanOrEqual(
        Date.now(),
      );
  }, 120_000);
});
