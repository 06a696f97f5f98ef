import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/*
 * A web server that sends what the hostile web sends, for end-to-end crawls: decompression bombs,
 * a page far over any sane limit, binary bytes that claim to be HTML, a broken sitemap, and a page
 * with validators that answers 304 to a conditional GET. Every request's headers are recorded.
 */

const MiB = 1024 * 1024;

/** 1 GiB of zeros compressed with brotli: about 1.6 KB on the wire. Built once, lazily. */
let bomb: Buffer | undefined;
async function brotliBomb(): Promise<Buffer> {
  if (bomb) return bomb;
  const zeros = Buffer.alloc(MiB);
  let produced = 0;
  const source = new Readable({
    read() {
      if (produced >= 1024 * MiB) return void this.push(null);
      produced += zeros.length;
      this.push(zeros);
    },
  });
  const chunks: Buffer[] = [];
  await pipeline(
    source,
    zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
    async (out: AsyncIterable<Buffer>) => {
      for await (const c of out) chunks.push(c);
    },
  );
  bomb = Buffer.concat(chunks);
  return bomb;
}

export const VALIDATORS = { etag: '"v1-abc"', lastModified: 'Sat, 02 Mar 2024 08:00:00 GMT' } as const;

/** The paths it serves, linked from `/` except those a seed must reach with its own metadata. */
export const HOSTILE_PATHS = {
  home: '/',
  good: '/good',
  /** Brotli, 1.6 KB that inflate to 1 GiB of NULs, served as text/html. */
  bomb: '/bomb',
  /** The same bomb under another name, for a seed with its own http.content.limit. */
  bombByRatio: '/bomb-ratio',
  /** 50 MB of HTML, streamed until the client hangs up. */
  big: '/big',
  /** NUL bytes and noise, served as text/html. */
  binary: '/binary',
  /** ETag and Last-Modified; 304 when the request carries them back. */
  validated: '/validated',
  /** A urlset cut in the middle of an element. */
  brokenSitemap: '/sitemap.xml',
} as const;

export class HostileServer {
  readonly requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  /** Bytes of /big written before the client closed the connection. */
  bigWritten = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  origin = '';

  constructor(private readonly host = '127.0.7.1') {}

  /** The requests for a path, in order. */
  of(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async start(): Promise<void> {
    const bombBody = await brotliBomb();
    const P = HOSTILE_PATHS;
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push({ path, headers: req.headers });
      const html = (body: string) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      switch (path) {
        case '/robots.txt':
          return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        case P.home:
          return html(
            `<html><head><title>Hostile</title></head><body>${[P.good, P.bomb, P.big, P.binary, P.validated]
              .map((p) => `<a href="${p}">${p}</a>`)
              .join(' ')}</body></html>`,
          );
        case P.good:
          return html('<html><head><title>Good</title></head><body><p>Plain good text.</p></body></html>');
        case P.bomb:
        case P.bombByRatio:
          return void res
            .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' })
            .end(bombBody);
        case P.big: {
          this.bigWritten = 0;
          const chunk = Buffer.from(`<p>${'lorem ipsum dolor sit amet '.repeat(2000)}</p>\n`);
          let closed = false;
          res.on('close', () => (closed = true));
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.write('<html><head><title>Big</title></head><body>');
          const pump = () => {
            while (!closed && this.bigWritten < 50 * 1000 * 1000) {
              this.bigWritten += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end('</body></html>');
          };
          return pump();
        }
        case P.binary: {
          const noise = Buffer.alloc(64 * 1024);
          for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 256;
          return void res.writeHead(200, { 'content-type': 'text/html' }).end(noise);
        }
        case P.validated: {
          const matches =
            req.headers['if-none-match'] === VALIDATORS.etag ||
            req.headers['if-modified-since'] === VALIDATORS.lastModified;
          const headers = { etag: VALIDATORS.etag, 'last-modified': VALIDATORS.lastModified };
          if (matches) return void res.writeHead(304, headers).end();
          return void res
            .writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' })
            .end('<html><head><title>Validated</title></head><body><p>Cached text.</p></body></html>');
        }
        case P.brokenSitemap:
          return void res
            .writeHead(200, { 'content-type': 'application/xml' })
            .end(
              '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
                `<url><loc>${this.origin}/good</loc></url>\n<url><loc>${this.origin}/a`,
            );
        default:
          return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, this.host, resolve));
    this.origin = `http://${this.host}:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
