import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOfResponse } from '../../../src/fetch/outcomes.js';
import { Metadata } from '../../../src/model/metadata.js';
import { MetadataTransfer } from '../../../src/model/metadata-transfer.js';
import type { HttpProtocol } from '../../../src/protocol/http/client.js';
import { fakeResolver, startServer, type TestServer, testProtocol } from './servers.js';

/**
 * Cookies from page to page as a crawl hands them on: a real response's Set-Cookie merged into the
 * page's metadata, transferred to its outlinks, sent by the protocol to two real servers that sites
 * on different names resolve to (cookies do not depend on the port, RFC 6265 8.5).
 */
describe('cookies handed on to outlinks', () => {
  const received = new Map<string, string | undefined>();
  let first: TestServer;
  let second: TestServer;
  let protocol: HttpProtocol;
  const transfer = new MetadataTransfer({
    transfer: ['protocol.set-cookie'],
    persist: [],
    trackPath: true,
    trackDepth: false,
  });

  beforeAll(async () => {
    const record =
      (origin: string) =>
      (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
        received.set(`${req.headers.host?.split(':')[0]}${req.url}`, req.headers.cookie);
        if (req.url === '/login') {
          res.setHeader('set-cookie', [
            'host=1',
            'wide=2; Domain=example.com',
            'suffix=3; Domain=com',
            'foreign=4; Domain=other.org',
            'deep=5; Path=/account',
          ]);
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${origin}</p>`);
      };
    first = await startServer(record('first'), '127.0.0.1');
    second = await startServer(record('second'), '127.0.0.1');
    protocol = testProtocol(
      { 'http.use.cookies': true },
      {
        resolver: fakeResolver({
          'www.example.com': '127.0.0.1',
          'shop.example.com': '127.0.0.1',
          'other.org': '127.0.0.1',
        }),
      },
    );
  });

  afterAll(async () => {
    await protocol.close();
    await Promise.all([first.close(), second.close()]);
  });

  /** Fetches `url` with `md`; returns its metadata after the fetch, as the fetcher would store it. */
  async function fetchPage(url: string, md: Metadata): Promise<Metadata> {
    const response = await protocol.fetch(url, md);
    return outcomeOfResponse({ url, metadata: md, response, timeInQueuesMs: 0, prefix: 'protocol.' })
      .metadata;
  }

  it('go only where the host that set them may send them', async () => {
    const login = `http://www.example.com:${first.port}/login`;
    const page = await fetchPage(login, new Metadata());
    const outlink = (url: string) => fetchPage(url, transfer.forOutlink(login, page));

    await outlink(`http://www.example.com:${first.port}/account/me`);
    await outlink(`http://shop.example.com:${first.port}/cart`);
    const other = `http://other.org:${second.port}/`;
    const otherPage = await outlink(other);
    expect(received.get('www.example.com/account/me')).toBe('host=1; wide=2; deep=5');
    expect(received.get('shop.example.com/cart')).toBe('wide=2');
    expect(received.get('other.org/')).toBeUndefined();

    // The other site's page kept the cookies in its metadata (it set none): its own outlinks still
    // send them only to the site that set them.
    await fetchPage(`http://other.org:${second.port}/next`, transfer.forOutlink(other, otherPage));
    await fetchPage(`http://www.example.com:${first.port}/back`, transfer.forOutlink(other, otherPage));
    expect(received.get('other.org/next')).toBeUndefined();
    expect(received.get('www.example.com/back')).toBe('host=1; wide=2');
  });
});
