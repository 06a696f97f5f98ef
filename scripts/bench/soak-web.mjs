// @ts-check
// The soak's loopback web: H hosts (127.27.x.y, one port) x P small pages, each host its own server
// so that a host can really go down (its socket closed: connections refused) and come back, answer
// 429 or 503 for a while, or be slow. Every request is logged with its start and end (the end is
// when the answer was sent or the client went away), so the soak can check that no URL was fetched
// twice at the same time. The link graph is deterministic: the soak knows every page's outlinks.

import { createServer } from 'node:http';

/** @typedef {'ok' | 'down' | '429' | '503' | 'slow'} HostMode */
/**
 * One request as the server saw it.
 * @typedef {{ url: string, start: number, end: number, status: number }} Logged
 */

/**
 * @param {number} h
 * @returns {string}
 */
export function soakHost(h) {
  return `127.27.${Math.floor(h / 200)}.${(h % 200) + 10}`;
}

/**
 * The links of page `i` of host `h`: three of its own host (which make every page reachable from
 * page 0) and two to other hosts.
 * @param {number} h
 * @param {number} i
 * @param {number} hosts
 * @param {number} pages
 * @returns {{ host: number, page: number }[]}
 */
export function linksOf(h, i, hosts, pages) {
  return [
    { host: h, page: (i + 1) % pages },
    { host: h, page: (2 * i + 1) % pages },
    { host: h, page: (2 * i + 2) % pages },
    { host: (h + 1) % hosts, page: i },
    { host: (h * 7 + 3) % hosts, page: (i * 3) % pages },
  ];
}

/**
 * @param {{ hosts: number, pages: number }} options
 */
export function createSoakWeb({ hosts, pages }) {
  let port = 0;
  /** @type {Map<number, import('node:http').Server>} */
  const servers = new Map();
  /** @type {Map<number, Set<import('node:net').Socket>>} */
  const sockets = new Map();
  /** @type {Map<number, HostMode>} */
  const modes = new Map();
  /** @type {Logged[]} */
  const log = [];
  /** @type {(h: number, i: number) => string} */
  const url = (h, i) => `http://${soakHost(h)}:${port}/p${i}`;

  /**
   * @param {number} h
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  function handle(h, req, res) {
    const start = Date.now();
    const path = req.url ?? '/';
    const entry = { url: `http://${soakHost(h)}:${port}${path}`, start, end: 0, status: 0 };
    log.push(entry);
    res.on('close', () => {
      entry.end = Date.now();
      entry.status = res.headersSent ? res.statusCode : 0;
    });
    const mode = modes.get(h) ?? 'ok';
    if (mode === '429') {
      // Half of them say when to come back.
      res.writeHead(429, h % 2 === 0 ? { 'retry-after': '30' } : {}).end();
      return;
    }
    if (mode === '503') {
      res.writeHead(503).end();
      return;
    }
    const answer = () => {
      if (res.destroyed) return;
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
        return;
      }
      const m = /^\/p(\d+)$/.exec(path);
      const i = m ? Number(m[1]) : -1;
      if (i < 0 || i >= pages) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const links = linksOf(h, i, hosts, pages)
        .map((l) => `<a href="${url(l.host, l.page)}">page ${l.page} of host ${l.host}</a>`)
        .join('\n');
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html><head><title>Host ${h} page ${i}</title></head><body><h1>Host ${h} page ${i}</h1>` +
            `<p>${'Soak text of a small page. '.repeat(40)}</p>\n${links}</body></html>`,
        );
    };
    // Slow: 3 to 14 s, so that some answers outlast http.timeout (10 s).
    if (mode === 'slow') setTimeout(answer, 3000 + ((start * 7919) % 11_000));
    else answer();
  }

  /** @param {number} h */
  async function listen(h) {
    const server = createServer((req, res) => handle(h, req, res));
    /** @type {Set<import('node:net').Socket>} */
    const open = new Set();
    server.on('connection', (s) => {
      open.add(s);
      s.on('close', () => open.delete(s));
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, soakHost(h), () => resolve(undefined));
    });
    port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
    servers.set(h, server);
    sockets.set(h, open);
  }

  return {
    hosts,
    pages,
    log,
    url,
    get port() {
      return port;
    },
    async start() {
      for (let h = 0; h < hosts; h++) await listen(h);
    },
    /**
     * @param {number} h
     * @param {HostMode} mode
     */
    async setMode(h, mode) {
      const was = modes.get(h) ?? 'ok';
      if (was === mode) return;
      modes.set(h, mode);
      if (mode === 'down') {
        // Refused from now on: the listening socket closes and open connections are cut.
        const server = servers.get(h);
        servers.delete(h);
        for (const s of sockets.get(h) ?? []) s.destroy();
        await new Promise((resolve) => server?.close(() => resolve(undefined)) ?? resolve(undefined));
      } else if (was === 'down') {
        await listen(h);
      }
    },
    /** @param {number} h */
    modeOf(h) {
      return modes.get(h) ?? 'ok';
    },
    async close() {
      for (const [h, server] of servers) {
        for (const s of sockets.get(h) ?? []) s.destroy();
        await new Promise((resolve) => server.close(() => resolve(undefined)));
      }
      servers.clear();
    },
  };
}
