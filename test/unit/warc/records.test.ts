import { describe, expect, it } from 'vitest';
import { WARCParser, type WARCRecord } from 'warcio';
import { Metadata } from '../../../src/model/metadata.js';
import { ConfigError } from '../../../src/util/errors.js';
import {
  answerRecords,
  archivedResponseHeaders,
  serialize,
  statusCodeFilter,
  warcinfoRecord,
  wireText,
} from '../../../src/warc/records.js';
import { answer, sha1Base32 } from './support.js';

interface Read {
  record: WARCRecord;
  raw: Buffer;
  payload: Buffer;
}

/** Serialises records as the archive does and reads them back with warcio. */
async function roundTrip(records: WARCRecord[]): Promise<Read[]> {
  const bytes = await Promise.all(records.map((r) => serialize(r)));
  const out: Read[] = [];
  for (const b of bytes) {
    const raw = Buffer.from(b);
    const record = (await WARCParser.parse([raw]))!;
    const payload = Buffer.from(await record.readFully(false));
    out.push({ record, raw, payload });
  }
  return out;
}

/** The record's block as bytes: everything between the WARC head and the closing CRLF CRLF. */
function block(raw: Buffer): Buffer {
  const start = raw.indexOf('\r\n\r\n') + 4;
  return raw.subarray(start, raw.length - 4);
}

describe('archived response headers', () => {
  it('keep every field as received, in order and in its case, when the payload is the body as sent', () => {
    const raw = [
      'Content-Type',
      'text/html',
      'Set-Cookie',
      'a=1',
      'set-cookie',
      'b=2',
      'Content-Length',
      '5',
    ];
    expect(archivedResponseHeaders(raw, 5, false)).toEqual([
      ['Content-Type', 'text/html'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['Content-Length', '5'],
    ]);
  });

  it('hide Content-Encoding of a decoded body and a Content-Length that is not the payload length', () => {
    const raw = ['Content-Encoding', 'gzip', 'Content-Length', '31', 'Vary', 'Accept-Encoding'];
    expect(archivedResponseHeaders(raw, 100, true)).toEqual([
      ['X-Crawler-Content-Encoding', 'gzip'],
      ['X-Crawler-Content-Length', '31'],
      ['Vary', 'Accept-Encoding'],
      ['Content-Length', '100'],
    ]);
  });

  it('hide Transfer-Encoding (the chunks are gone) and state the length of the payload', () => {
    expect(archivedResponseHeaders(['Transfer-Encoding', 'chunked'], 42, false)).toEqual([
      ['X-Crawler-Transfer-Encoding', 'chunked'],
      ['Content-Length', '42'],
    ]);
  });

  it('keep an unknown Content-Encoding, whose body is archived as sent', () => {
    expect(archivedResponseHeaders(['Content-Encoding', 'zstd', 'Content-Length', '9'], 9, false)).toEqual([
      ['Content-Encoding', 'zstd'],
      ['Content-Length', '9'],
    ]);
  });

  it('add no Content-Length to an empty answer that had none (304, 204)', () => {
    expect(archivedResponseHeaders(['ETag', '"x"'], 0, false)).toEqual([['ETag', '"x"']]);
  });

  it('give header bytes that were UTF-8 back as the same bytes', () => {
    const received = Buffer.from('attachment; filename="café.txt"', 'utf8').toString('latin1');
    expect(Buffer.from(wireText(received), 'utf8')).toEqual(Buffer.from('attachment; filename="café.txt"'));
  });
});

describe('warc.status.codes', () => {
  it('takes codes and classes', () => {
    const archived = statusCodeFilter(['200', '3xx', '404']);
    expect([200, 301, 304, 404, 410, 500].map(archived)).toEqual([true, true, true, true, false, false]);
  });

  it('refuses an entry that is neither, naming the key and the entry', () => {
    expect(() => statusCodeFilter(['2xx', 'ok'])).toThrow(ConfigError);
    expect(() => statusCodeFilter(['2xx', 'ok'])).toThrow(
      'key "warc.status.codes" has "ok": expected status codes such as 404 or classes such as 4xx',
    );
  });
});

describe('the records of an answer', () => {
  it('a 200 is a request and a response record pointing at each other, with SHA-1 base32 digests', async () => {
    const payload = Buffer.from([0, 1, 2, 250, 251, 252, 13, 10, 13, 10, 7]);
    const a = answer({ payload, raw: ['Content-Type', 'application/octet-stream', 'Content-Length', '11'] });
    const recs = answerRecords(a, { version: '1.0', requestRecords: true });
    const [req, res] = await roundTrip([recs.request!, recs.main]);
    expect(req!.record.warcType).toBe('request');
    expect(res!.record.warcType).toBe('response');
    expect(req!.record.warcConcurrentTo).toEqual([res!.record.warcHeader('WARC-Record-ID')]);
    expect(res!.record.warcConcurrentTo).toEqual([req!.record.warcHeader('WARC-Record-ID')]);
    for (const r of [req!, res!]) {
      expect(r.record.warcTargetURI).toBe('http://site.test/page?q=1');
      expect(r.record.warcDate).toBe('2025-01-01T12:30:15Z');
      expect(r.record.warcHeader('WARC-IP-Address')).toBe('127.0.0.9');
      expect(r.record.warcContentLength).toBe(block(r.raw).length);
      expect(r.record.warcBlockDigest).toBe(sha1Base32(block(r.raw)));
    }
    expect(res!.payload).toEqual(payload);
    expect(res!.record.warcPayloadDigest).toBe(sha1Base32(payload));
    expect(res!.record.httpHeaders?.statusline).toBe('HTTP/1.1 200 OK');
    expect(block(res!.raw).toString('latin1')).toMatch(
      /^HTTP\/1\.1 200 OK\r\nContent-Type: application\/octet-stream\r\nContent-Length: 11\r\n\r\n/,
    );
    expect(block(req!.raw).toString()).toBe(
      'GET /page?q=1 HTTP/1.1\r\nhost: site.test\r\nconnection: keep-alive\r\nuser-agent: testbot\r\n\r\n',
    );
  });

  it('digests equal the ones warcio computes itself (with its own SHA-1), for every kind of record', async () => {
    const cases = [
      answer({ payload: Buffer.from('ünïcödé body \r\n\r\n end') }),
      answer({ payload: Buffer.alloc(0), raw: ['Content-Length', '0'] }),
      answer({ status: 304, statusText: 'Not Modified', raw: ['ETag', '"x"'], payload: Buffer.alloc(0) }),
      answer({ raw: ['X-Name', Buffer.from('naïve', 'utf8').toString('latin1')] }),
    ];
    for (const a of cases) {
      const ours = answerRecords(a, { version: '1.0', requestRecords: true });
      const theirs = answerRecords(a, { version: '1.0', requestRecords: true });
      for (const r of [theirs.request!, theirs.main]) {
        r.warcHeaders.headers.delete('WARC-Block-Digest');
        r.warcHeaders.headers.delete('WARC-Payload-Digest');
      }
      await roundTrip([ours.request!, ours.main, theirs.request!, theirs.main]);
      for (const [o, t] of [
        [ours.request!, theirs.request!],
        [ours.main, theirs.main],
      ] as const) {
        expect(o.warcBlockDigest).toBe(t.warcBlockDigest);
        if (o.warcType !== 'revisit') expect(o.warcPayloadDigest).toBe(t.warcPayloadDigest);
      }
    }
  });

  it('without request records, a response alone', () => {
    const recs = answerRecords(answer(), { version: '1.0', requestRecords: false });
    expect(recs.request).toBeUndefined();
    expect(recs.main.warcConcurrentTo ?? []).toEqual([]);
  });

  it('a 304 is a server-not-modified revisit that names the capture of warc.date and warc.digest', async () => {
    const before = Metadata.of({ 'warc.date': '2024-12-01T00:00:00Z', 'warc.digest': 'sha1:ABC' });
    const a = answer({
      status: 304,
      statusText: 'Not Modified',
      raw: ['ETag', '"v1"'],
      payload: Buffer.alloc(0),
      metadata: before,
    });
    const [rev] = await roundTrip([answerRecords(a, { version: '1.0', requestRecords: false }).main]);
    expect(rev!.record.warcType).toBe('revisit');
    expect(rev!.record.warcHeader('WARC-Profile')).toBe(
      'http://netpreserve.org/warc/1.0/revisit/server-not-modified',
    );
    expect(rev!.record.warcRefersToTargetURI).toBe('http://site.test/page?q=1');
    expect(rev!.record.warcRefersToDate).toBe('2024-12-01T00:00:00Z');
    expect(rev!.record.warcPayloadDigest).toBe('sha1:ABC');
    expect(block(rev!.raw).toString()).toBe('HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n');
  });

  it('a cut body is marked WARC-Truncated; WARC/1.1 dates keep milliseconds', async () => {
    const a = answer({ trimmed: 'length' });
    const [res] = await roundTrip([answerRecords(a, { version: '1.1', requestRecords: false }).main]);
    expect(res!.raw.subarray(0, 9).toString()).toBe('WARC/1.1\r');
    expect(res!.record.warcHeader('WARC-Truncated')).toBe('length');
    expect(res!.record.warcDate).toBe('2025-01-01T12:30:15.250Z');
  });

  it('the warcinfo record carries the file name and the fields given', async () => {
    const info = warcinfoRecord(
      'crawl-x.warc.gz',
      { software: 'os-crawler/0.1.0', hostname: 'h1' },
      '1.0',
      0,
    );
    const [r] = await roundTrip([info]);
    expect(r!.record.warcType).toBe('warcinfo');
    expect(r!.record.warcHeader('WARC-Filename')).toBe('crawl-x.warc.gz');
    expect(r!.payload.toString()).toBe('software: os-crawler/0.1.0\r\nhostname: h1\r\n');
  });
});
