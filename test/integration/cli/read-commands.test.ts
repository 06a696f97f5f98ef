import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../support/child.js';
import { contentDocs, crawler, fastCrawlSettings, statusDocs, writeConf } from '../../support/crawl.js';
import { deleteIndices, uniqueIndexNames } from '../../support/opensearch.js';
import { robots, Site, status } from '../../support/site.js';

// The commands that read a crawl, against a real crawl of two loopback hosts: `crawler search`
// (what it finds, its filters, its paging, the near-duplicate mark, a page whose title and text try
// to drive the terminal), `crawler urls` (by status, cause, host, due time, page by page), and all
// of them under a config without http.agent.name.

const names = uniqueIndexNames('search');
const site = new Site();
const H = '127.0.46.1';
const OTHER = '127.0.46.2';
let conf: string;
let h: string;
let other: string;

const html = (title: string, body: string) => (_n: number, _q: IncomingMessage, res: ServerResponse) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);

const PYTHON = html(
  'Python generators',
  '<h1>Generators</h1><p>A generator function yields values lazily; iterators and generators save memory.</p>',
);

beforeAll(async () => {
  buildCli();
  await site.start([H, OTHER]);
  h = site.origin(H);
  other = site.origin(OTHER);
  for (const x of [H, OTHER]) site.route(x, '/robots.txt', robots('User-agent: *\nAllow: /\n'));
  // Links whose text is no word of the pages below.
  const links = ['/python', '/python-copy', '/bread', '/evil', '/gone'].map(
    (l, i) => `<a href="${l}">${i}</a>`,
  );
  site.route(H, '/', html('Home', `<p>Start here.</p>${links.join(' ')}`));
  // The same page twice: the second one judged is a near-duplicate of the first (dedup.mode flag).
  site.route(H, '/python', PYTHON);
  site.route(H, '/python-copy', PYTHON);
  site.route(H, '/bread', html('Sourdough bread', '<p>Flour, water and salt, and a long proof.</p>'));
  site.route(
    H,
    '/evil',
    html(
      '\u001b]0;owned\u0007Evil \u001b[31mtitle',
      '<p>generators \u001b[2J\u001b[H wiped the screen \u202egnp.exe \ue000fake\ue001 mark</p>',
    ),
  );
  site.route(H, '/gone', status(404));
  site.route(OTHER, '/', html('Other host', '<p>Python generators on another host.</p>'));
  conf = writeConf({ ...fastCrawlSettings(names), 'dedup.mode': 'flag' });
  expect(
    (await crawler('run', '--once', '--seed', `${h}/`, '--seed', `${other}/`, '--conf', conf)).code,
  ).toBe(0);
  await contentDocs(names.content); // refreshes the content index
}, 120_000);

afterAll(async () => {
  await site.close();
  await deleteIndices(names.status, names.content);
});

const search = (...args: string[]) => crawler('search', ...args, '--conf', conf);

describe('crawler search', () => {
  it('finds the pages whose title or text match every word, each with its title, URL and the passage that matched', async () => {
    const r = await search('generators');
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('4 results for "generators", 1-4 shown');
    const urls = r.out.filter((l) => /^ {3}http/.test(l)).map((l) => l.trim());
    expect(new Set(urls)).toEqual(new Set([`${h}/python`, `${h}/python-copy`, `${h}/evil`, `${other}/`]));
    // The title match ranks first; the passage shows the words around the match.
    expect(r.out[2]).toBe('1. Python generators');
    expect(r.out).toContainEqual(
      '   Generators A generator function yields values lazily; iterators and generators save memory.',
    );
    // Every word must match.
    expect((await search('generators', 'bread')).out[0]).toBe('no results for "generators bread"');
    expect((await search('bread')).out.slice(2, 4)).toEqual(['1. Sourdough bread', `   ${h}/bread`]);
  });

  it('marks a page judged a near-duplicate with the page it copies', async () => {
    const r = await search('generators', '--host', H);
    const marks = r.out.filter((l) => l.startsWith('   near-duplicate of '));
    expect(marks.length).toBe(1);
    expect([`   near-duplicate of ${h}/python`, `   near-duplicate of ${h}/python-copy`]).toContain(marks[0]);
  });

  it("prints no control character, direction override or fake highlight of a page's own", async () => {
    const r = await search('wiped');
    expect(r.out[0]).toBe('1 result for "wiped", 1-1 shown');
    expect(r.out[2]).toBe('1. ]0;owned Evil [31mtitle');
    expect(r.out[4]).toBe('   generators [2J [H wiped the screen gnp.exe fake mark');
    for (const l of r.out) expect(l).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\ue000\ue001]/);
  });

  it('filters by host and by fetch time, and pages through the results', async () => {
    const byHost = await search('generators', '--host', OTHER);
    expect(byHost.out.slice(0, 4)).toEqual([
      '1 result for "generators", 1-1 shown',
      '',
      '1. Other host',
      `   ${other}/`,
    ]);
    expect((await search('generators', '--since', '1h')).out[0]).toMatch(/^4 results/);
    expect((await search('generators', '--until', '1h')).out[0]).toBe('no results for "generators"');
    const second = await search('generators', '--size', '3', '--page', '2');
    expect(second.out[0]).toBe('4 results for "generators", 4-4 shown');
    expect(second.out[2]).toMatch(/^4\. /);
    expect((await search('generators', '--size', '3')).out[0]).toBe(
      '4 results for "generators", 1-3 shown; --page 2 for more',
    );
  });

  it('--json prints the total and the hits, the snippet without marks', async () => {
    const r = await search('bread', '--json');
    const body = JSON.parse(r.out.join('\n'));
    expect(body).toMatchObject({
      total: 1,
      page: 1,
      size: 10,
      hits: [
        {
          url: `${h}/bread`,
          title: 'Sourdough bread',
          host: H,
          snippet: 'Flour, water and salt, and a long proof.',
        },
      ],
    });
    expect(body.hits[0].fetchTime).toMatch(/^\d{4}-/);
  });

  it('refuses a page past what OpenSearch pages (exit 3) and a missing query (exit 2)', async () => {
    expect(await search('x', '--size', '100', '--page', '101')).toMatchObject({
      code: 3,
      err: [expect.stringContaining('reaches past result 10000')],
    });
    expect((await crawler('search', '--conf', conf)).code).toBe(2);
  });
});

const urls = (...args: string[]) => crawler('urls', ...args, '--conf', conf);
/** The URL of each listed line (status, next fetch, URL, why). */
const listed = (out: string[]) =>
  out.filter((l) => /^[A-Z_]+ +\S+ +http/.test(l)).map((l) => l.split(/ +/)[2] ?? '');

describe('crawler urls', () => {
  it('lists the URLs of a status with why they failed', async () => {
    const r = await urls('--status', 'FETCH_ERROR');
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      expect.stringMatching(new RegExp(`^FETCH_ERROR +\\S+Z +${h}/gone +\\(http\\.404, HTTP 404\\)$`)),
    ]);
  });

  it('selects by error.cause or fetch.exception, and by host', async () => {
    expect(listed((await urls('--cause', 'http.404')).out)).toEqual([`${h}/gone`]);
    expect(listed((await urls('--cause', 'no.such.cause')).out)).toEqual([]);
    expect((await urls('--cause', 'no.such.cause')).out).toEqual(['no URL matches']);
    expect(listed((await urls('--host', OTHER)).out)).toEqual([`${other}/`]);
  });

  it('selects by due time, soonest due first', async () => {
    // A fetch error is due again in 2 hours (fetchInterval.fetch.error), a fetched page in a day.
    expect(listed((await urls('--due-before', '+3h')).out)).toEqual([`${h}/gone`]);
    const later = listed((await urls('--due-after', '+3h')).out);
    expect(later.length).toBe(6);
    expect(later).not.toContain(`${h}/gone`);
    expect(listed((await urls('--due-before', 'now')).out)).toEqual([]);
    expect(listed((await urls()).out)[0]).toBe(`${h}/gone`);
  });

  it('pages through every URL with --after, and --all lists them all at once', async () => {
    const known = [...(await statusDocs(names.status)).keys()].sort();
    expect(known.length).toBe(7);
    const seen: string[] = [];
    let after: string[] = [];
    for (let page = 0; page < 3; page++) {
      const r = await urls('--size', '3', ...after);
      seen.push(...listed(r.out));
      const more = r.out.find((l) => l.includes('--after'));
      if (page < 2) {
        expect(more).toMatch(/^7 URLs match; the next 3: --after \S+ \(or --all\)$/);
        after = ['--after', more!.split(' ')[7]!];
      } else expect(more).toBeUndefined();
    }
    expect(seen.sort()).toEqual(known);
    expect(listed((await urls('--all', '--size', '2')).out).sort()).toEqual(known);
  });

  it('--json prints one object per URL', async () => {
    const r = await urls('--status', 'FETCH_ERROR', '--json');
    expect(r.out.map((l) => JSON.parse(l))).toEqual([
      {
        url: `${h}/gone`,
        status: 'FETCH_ERROR',
        key: H,
        nextFetchDate: expect.stringMatching(/Z$/),
        cause: 'http.404',
        statusCode: '404',
      },
    ]);
  });

  it('refuses a status that does not exist and a position it did not print (exit 3)', async () => {
    expect(await urls('--status', 'DONE')).toMatchObject({
      code: 3,
      err: [expect.stringContaining('not a status')],
    });
    expect((await urls('--after', 'bogus')).code).toBe(3);
  });
});

describe('commands that only read', () => {
  it('run without http.agent.name: stats, search, urls, url and url --robots', async () => {
    const { 'http.agent.name': _, ...settings }: Record<string, unknown> = fastCrawlSettings(names);
    const unnamed = writeConf(settings);
    for (const args of [['stats'], ['search', 'bread'], ['urls'], ['url', `${h}/bread`]]) {
      const r = await crawler(...args, '--conf', unnamed);
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 0, err: [] });
    }
    const robots = await crawler('url', `${h}/bread`, '--robots', '--conf', unnamed);
    expect(robots.err).toEqual([]);
    expect(robots.out).toContain(
      '  robots.txt: allowed (parsed) for robots in general: http.agent.name is not set',
    );
  });
});
