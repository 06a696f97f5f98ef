// @ts-check
// The synthetic web of the benchmark: H hosts (distinct loopback addresses 127.1.x.y, one port) x P
// pages, deterministic and pre-rendered, served by one lightweight process.
//
// Every page has ~50 links, 80% to its own host: 12 navigation and 4 footer links (the same on every
// page of a host, as on real sites), 24 in-text links (to pages 2i+1 and 2i+2, which make every page
// reachable from page 0 through same-host links, and to pseudo-random pages), and 10 links to other
// hosts. One page in 100 also links to a page that answers 404, one to a 301 redirect and one to a
// path robots.txt disallows. `small` pages are ~10 KB, `large` ~90 KB; the filler text comes from a
// pool of pre-rendered blocks, so the server only copies bytes.
//
//   node scripts/bench/web.mjs --profile small --hosts 50 --pages 2000
//
// prints one JSON line {port, hosts, seeds, expected} once it listens, and runs until killed.

import { createServer } from 'node:http';

/** @typedef {'small' | 'large'} Profile */
/**
 * Which web: its profile (page size), number of hosts and of pages per host, and the port (0: any).
 * @typedef {{ profile?: string, hosts?: number, pages?: number, port?: number }} WebOptions
 */
/**
 * URLs a complete crawl of a web knows.
 * @typedef {{ pages: number, notFound: number, redirects: number, disallowed: number }} Expected
 */
/** @typedef {ReturnType<typeof createWeb>} Web */

/** @type {Record<Profile, { bytes: number }>} */
export const PROFILES = {
  small: { bytes: 10 * 1024 },
  large: { bytes: 90 * 1024 },
};

const WORDS = (
  'the of and to in is for on that with as by this from at are be it an or was which not have has ' +
  'crawler search index page link web site content data query result status fetch parse filter ' +
  'politeness robots sitemap document metadata schedule domain host shard cluster bulk node update ' +
  'résumé café naïve über straße — “quoted” words'
).split(' ');

/**
 * A small deterministic generator (mulberry32): the same seed gives the same web.
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @param {number} h host number
 * @returns {string}
 */
export function hostAddress(h) {
  return `127.1.${Math.floor(h / 200)}.${(h % 200) + 10}`;
}

/**
 * The pages, links and expected crawl outcome of one web; bodies are built on demand from parts.
 * @param {WebOptions} options
 */
export function createWeb({ profile = 'small', hosts = 50, pages = 2000, port = 0 }) {
  if (profile !== 'small' && profile !== 'large') {
    throw new Error(`unknown profile "${profile}": use small or large`);
  }
  const spec = PROFILES[profile];
  const r0 = rng(7);
  /** @type {(r: () => number, n: number) => string} */
  const words = (r, n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  // Filler blocks shared by all pages (text, inline markup, no links): ~spec.bytes minus the
  // page's own head and link sections.
  const fillerBytes = Math.max(0, spec.bytes - 7600);
  const FILLERS = Array.from({ length: 32 }, () => {
    let out = '';
    while (out.length < fillerBytes) {
      out += `<div class="para-wrap"><p class="body-text">${words(r0, 14)} <span class="em">${words(r0, 2)}</span> ${words(r0, 12)} <b>${words(r0, 1)}</b> ${words(r0, 10)}.</p></div>\n`;
    }
    return Buffer.from(out, 'utf8');
  });
  /** @type {(h: number) => string} */
  const base = (h) => `http://${hostAddress(h)}:${port}`;
  /** @type {(h: number, i: number) => string} */
  const pageUrl = (h, i) => `${base(h)}/p/${i}.html`;

  // Snippets drawn once; a page picks from them with its own seeded generator, so building all
  // heads up front takes microseconds per page.
  const SNIPPETS = Array.from({ length: 512 }, (_, k) => words(r0, 1 + (k % 12)));
  const ANCHORS = Array.from({ length: 128 }, (_, k) => words(r0, 1 + (k % 3)));

  /**
   * @param {number} h
   * @param {number} i
   */
  function head(h, i) {
    const r = rng(h * 1_000_003 + i);
    /** @type {(a: readonly string[]) => string} */
    const pick = (a) => a[(r() * a.length) | 0] ?? '';
    /** @type {(href: string) => string} */
    const a = (href) => `<a href="${href}" class="link">${pick(ANCHORS)}</a>`;
    let nav = '';
    for (let k = 0; k < 12; k++) nav += `<li class="nav-item">${a(`/p/${k}.html`)}</li>`;
    const hrefs = [2 * i + 1, 2 * i + 2].filter((k) => k < pages).map((k) => `/p/${k}.html`);
    while (hrefs.length < 24) hrefs.push(`/p/${(r() * pages) | 0}.html`);
    for (let k = 0; k < 6; k++) {
      const other = (h + 1 + ((r() * (hosts - 1)) | 0)) % hosts;
      hrefs.push(`${base(other)}/p/${(r() * pages) | 0}.html`);
    }
    if (i % 100 === 1) hrefs.push(`/missing/${i}.html`);
    if (i % 100 === 2) hrefs.push(`/r/${i}.html`);
    if (i % 100 === 3) hrefs.push(`/private/${i}.html`);
    let text = '';
    for (const href of hrefs) {
      text += `<p class="body-text">${pick(SNIPPETS)} ${pick(SNIPPETS)} ${a(href)} ${pick(SNIPPETS)}.</p>\n`;
    }
    let footer = '';
    for (const k of [12, 13, 14, 15]) footer += `${a(`/p/${k % pages}.html`)} · `;
    for (const d of [1, 2, 3, 4]) footer += `${a(`${base((h + d) % hosts)}/p/0.html`)} · `;
    const title = `${pick(SNIPPETS)} ${pick(SNIPPETS)}`;
    return {
      top:
        `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
        `<title>${title} | Host ${h}</title>` +
        `<meta name="description" content="${pick(SNIPPETS)} ${pick(SNIPPETS)} ${pick(SNIPPETS)}">` +
        `<meta name="keywords" content="${pick(SNIPPETS)}">` +
        `<link rel="stylesheet" href="/css/main.css"><style>body{font:16px/1.5 sans-serif}.c{margin:0 auto}</style>` +
        `</head><body><header><nav class="main-nav"><ul>${nav}</ul></nav></header>` +
        `<main class="c"><article><h1>${title}</h1>\n${text}`,
      bottom: `</article></main><footer class="site-footer">${footer}<p>© 2026 ${pick(SNIPPETS)}</p></footer></body></html>\n`,
    };
  }

  /**
   * The body of page i of host h as [head, filler, tail] buffers (concatenated = the page).
   * @param {number} h
   * @param {number} i
   * @returns {[Buffer, Buffer, Buffer]}
   */
  function parts(h, i) {
    const { top, bottom } = head(h, i);
    const filler = /** @type {Buffer} */ (FILLERS[(h * 31 + i) % FILLERS.length]);
    return [Buffer.from(top, 'utf8'), filler, Buffer.from(bottom, 'utf8')];
  }

  const robots = Buffer.from('User-agent: *\nDisallow: /private/\n');
  /** @type {(k: number) => number} */
  const specialCount = (k) => (pages > k ? Math.floor((pages - 1 - k) / 100) + 1 : 0);
  return {
    profile,
    hosts,
    pages,
    seeds: Array.from({ length: hosts }, (_, h) => pageUrl(h, 0)),
    pageUrl,
    parts,
    /** @type {(h: number, i: number) => Buffer} */
    body: (h, i) => Buffer.concat(parts(h, i)),
    robots,
    /**
     * URLs a complete crawl knows: pages, and per host the 404s, redirects and disallowed paths.
     * @type {Expected}
     */
    expected: {
      pages: hosts * pages,
      notFound: hosts * specialCount(1),
      redirects: hosts * specialCount(2),
      disallowed: hosts * specialCount(3),
    },
  };
}

/**
 * Serves a web on one port of every host address; resolves once all listen.
 * @param {WebOptions} options
 */
export async function serve(options) {
  let web = createWeb(options);
  // The port is part of every absolute link, so pages are rendered once the servers listen.
  /** @type {[Buffer, Buffer, Buffer][]} */
  let rendered = [];
  /** @type {(h: number) => import('node:http').RequestListener} */
  const handler = (h) => (req, res) => {
    const url = req.url ?? '/';
    const m = /^\/p\/(\d+)\.html$/.exec(url);
    const i = m ? Number(m[1]) : -1;
    if (i >= 0 && i < web.pages) {
      const p = /** @type {[Buffer, Buffer, Buffer]} */ (rendered[h * web.pages + i]);
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': p[0].length + p[1].length + p[2].length,
      });
      res.cork();
      res.write(p[0]);
      res.write(p[1]);
      res.end(p[2]);
      res.uncork();
      return;
    }
    if (url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': web.robots.length });
      res.end(web.robots);
      return;
    }
    const r = /^\/r\/(\d+)\.html$/.exec(url);
    if (r) {
      res.writeHead(301, { location: `/p/${(Number(r[1]) * 7) % web.pages}.html`, 'content-length': 0 });
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html', 'content-length': 9 });
    res.end('not found');
  };
  /** @type {import('node:http').Server[]} */
  const servers = [];
  let port = options.port ?? 0;
  for (let h = 0; h < web.hosts; h++) {
    const server = createServer({ keepAliveTimeout: 60_000 }, handler(h));
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostAddress(h), () => resolve(undefined));
    });
    if (port === 0) port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
    servers.push(server);
  }
  web = createWeb({ ...options, port });
  rendered = new Array(web.hosts * web.pages);
  for (let h = 0; h < web.hosts; h++) {
    for (let i = 0; i < web.pages; i++) rendered[h * web.pages + i] = web.parts(h, i);
  }
  return {
    web,
    port,
    close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined))))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  /** @type {(name: string, fallback: string | number) => string} */
  const arg = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return String(i >= 0 ? args[i + 1] : fallback);
  };
  const { web, port } = await serve({
    profile: arg('profile', 'small'),
    hosts: Number(arg('hosts', 50)),
    pages: Number(arg('pages', 2000)),
    port: Number(arg('port', 0)),
  });
  process.stdout.write(
    `${JSON.stringify({ port, hosts: web.hosts, pages: web.pages, seeds: web.seeds, expected: web.expected })}\n`,
  );
  process.on('SIGTERM', () => process.exit(0));
}
