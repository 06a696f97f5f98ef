import { describe, expect, it } from 'vitest';
import { Metadata } from '../../../src/model/metadata.js';
import {
  documentId,
  fromStatusSource,
  partitionKey,
  toStatusSource,
} from '../../../src/opensearch/status-doc.js';

const SHA_EXAMPLE = '2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067';

describe('status documents', () => {
  it('have the id StormCrawler gives: lowercase hex SHA-256 of the URL', () => {
    expect(documentId('https://www.example.com/a.html')).toMatch(/^[0-9a-f]{64}$/);
    // Known vector: printf '%s' 'http://example.com/' | sha256sum
    expect(documentId('http://example.com/')).toBe(SHA_EXAMPLE);
  });

  it("are written in StormCrawler's shape: dots as %2E, arrays, nextFetchDate with millis or absent", () => {
    const md = Metadata.of({ 'url.path': 'https://www.example.com/', depth: '1', 'fetch.error.count': '1' });
    const at = Date.UTC(2025, 6, 1, 12, 11, 12);
    expect(
      toStatusSource(
        { url: 'https://www.example.com/a.html', status: 'FETCH_ERROR', metadata: md, nextFetchDate: at },
        'www.example.com',
      ),
    ).toEqual({
      url: 'https://www.example.com/a.html',
      status: 'FETCH_ERROR',
      metadata: { 'url%2Epath': ['https://www.example.com/'], depth: ['1'], 'fetch%2Eerror%2Ecount': ['1'] },
      key: 'www.example.com',
      nextFetchDate: '2025-07-01T12:11:12.000Z',
    });
    expect(
      toStatusSource(
        { url: 'http://a.test/', status: 'ERROR', metadata: new Metadata(), nextFetchDate: null },
        'a.test',
      ),
    ).not.toHaveProperty('nextFetchDate');
  });

  it('name their crawl (its status index, as the metrics points do) when the writer gives it', () => {
    const doc = toStatusSource(
      { url: 'http://a.test/', status: 'DISCOVERED', metadata: new Metadata(), nextFetchDate: 0 },
      'a.test',
      'status-b',
    );
    expect(doc).toEqual({
      url: 'http://a.test/',
      status: 'DISCOVERED',
      metadata: {},
      key: 'a.test',
      crawl: 'status-b',
      nextFetchDate: '1970-01-01T00:00:00.000Z',
    });
  });

  it('read back, also when written by StormCrawler with single strings', () => {
    const doc = fromStatusSource({
      url: 'http://a.test/',
      status: 'FETCHED',
      key: 'a.test',
      nextFetchDate: '2025-07-01T12:00:00Z',
      metadata: { 'error%2Ecause': 'x', depth: ['2'] },
    });
    expect(doc?.metadata.toJSON()).toEqual({ 'error.cause': ['x'], depth: ['2'] });
    expect(doc?.nextFetchDate).toBe(Date.UTC(2025, 6, 1, 12));
    expect(fromStatusSource({ nope: 1 })).toBeUndefined();
  });

  it('are keyed by host, domain or ip metadata', () => {
    expect(partitionKey('http://WWW.Example.co.uk/x', 'byHost')).toBe('www.example.co.uk');
    expect(partitionKey('http://www.example.co.uk/x', 'byDomain')).toBe('example.co.uk');
    expect(partitionKey('http://a.test/', 'byIP', Metadata.of({ ip: '10.0.0.1' }))).toBe('10.0.0.1');
    expect(partitionKey('not a url', 'byHost')).toBe('_DEFAULT_');
  });
});

describe('canonicalHost', () => {
  it('reads the host of canonical URLs as the URL parser does, and declines the others', async () => {
    const { canonicalHost } = await import('../../../src/opensearch/status-doc.js');
    const cases = [
      'http://example.com/a',
      'https://www.example.co.uk:8443/?q=1',
      'http://127.1.0.10:8080/p/1.html',
      'http://a-b.example/#x',
      'http://example.com',
    ];
    for (const u of cases) expect(canonicalHost(u)).toBe(new URL(u).hostname);
    for (const u of [
      'http://EXAMPLE.com/',
      'http://user@example.com/',
      'http://[::1]/',
      'http://0x7f.1/',
      'http://127.1/',
      'ftp://example.com/',
    ])
      expect(canonicalHost(u)).toBeUndefined();
  });
});
