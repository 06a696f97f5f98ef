import { createHash, randomUUID } from 'node:crypto';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { ArchivedAnswer } from '../fetch/archive.js';
import { MD } from '../model/keys.js';
import { ConfigError } from '../util/errors.js';

export type WarcVersion = '1.0' | '1.1';

/** Readers expect SHA-1 in base32 (RFC 4648), as Heritrix, wget and StormCrawler write it. */
const DIGEST = { algo: 'sha-1', prefix: 'sha1:', base32: true } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * A digest in warcio's form (`sha1:` and RFC 4648 base32), computed with node:crypto. warcio would
 * compute the same with hash-wasm, but it instantiates a WebAssembly hasher per digest: measured at
 * ~0.5 ms CPU per answer against ~0.04 ms here (a test checks that both give the same headers).
 */
export function sha1Digest(...parts: readonly Uint8Array[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  const bytes = h.digest();
  let out = 'sha1:';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(value >>> bits) & 31];
    }
  }
  // 160 bits are 32 base32 characters exactly: nothing is left over, no padding.
  return out;
}

/** Sets WARC-Block-Digest (and WARC-Payload-Digest unless a revisit) of an HTTP record. */
function digest(record: WARCRecord, payload: Buffer, withPayload: boolean): void {
  // The bytes warcio writes for the HTTP head: its lines and the empty line that ends it.
  const head = record.httpHeaders ? Buffer.from(`${record.httpHeaders.toString()}\r\n`, 'utf8') : EMPTY;
  const headers = record.warcHeaders.headers;
  if (withPayload) headers.set('WARC-Payload-Digest', sha1Digest(payload));
  headers.set('WARC-Block-Digest', sha1Digest(head, payload));
}

/** Response headers that would describe the body as it was on the wire rather than as archived. */
const HIDDEN_PREFIX = 'X-Crawler-';

const ASCII = /^[\x20-\x7e\t]*$/;
const EMPTY = Buffer.alloc(0);

/**
 * undici decodes header bytes as latin1 and warcio writes strings as UTF-8: this string's UTF-8
 * bytes are the bytes received, whenever those were ASCII or valid UTF-8 (anything else is kept as
 * the latin1 reading, so such a byte comes out as its UTF-8 form).
 */
export function wireText(value: string): string {
  if (ASCII.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const utf8 = bytes.toString('utf8');
  return Buffer.from(utf8, 'utf8').equals(bytes) ? utf8 : value;
}

/**
 * The response header fields as received, made consistent with the archived payload: undici has
 * removed the chunked framing, so Transfer-Encoding is hidden; a decoded body hides its
 * Content-Encoding; a Content-Length that does not give the payload's length is hidden and the
 * right one appended. Hidden fields keep their name and value behind the `X-Crawler-` prefix (the
 * convention of StormCrawler's WARC module and Common Crawl), so nothing the server sent is lost.
 */
export function archivedResponseHeaders(
  raw: readonly string[],
  payloadLength: number,
  decoded: boolean,
): [string, string][] {
  const out: [string, string][] = [];
  const length = String(payloadLength);
  let lengthStated = false;
  let hidden = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = wireText(raw[i + 1]!);
    const lower = name.toLowerCase();
    const stale =
      lower === 'transfer-encoding' ||
      (lower === 'content-encoding' && decoded) ||
      (lower === 'content-length' && (lengthStated || value.trim() !== length));
    if (stale) {
      out.push([HIDDEN_PREFIX + name, value]);
      hidden = true;
      continue;
    }
    if (lower === 'content-length') lengthStated = true;
    out.push([name, value]);
  }
  if (!lengthStated && (hidden || payloadLength > 0)) out.push(['Content-Length', length]);
  return out;
}

/** `warc.status.codes`: entries such as "404" or "4xx"; a ConfigError names a bad entry. */
export function statusCodeFilter(entries: readonly string[]): (code: number) => boolean {
  const codes = new Set<number>();
  const classes = new Set<number>();
  const bad: string[] = [];
  for (const e of entries) {
    const v = e.trim().toLowerCase();
    if (/^[1-5]\d\d$/.test(v)) codes.add(Number(v));
    else if (/^[1-5]xx$/.test(v)) classes.add(Number(v[0]));
    else bad.push(JSON.stringify(e));
  }
  if (bad.length > 0) {
    throw new ConfigError([
      `key "warc.status.codes" has ${bad.join(', ')}: expected status codes such as 404 or classes such as 4xx`,
    ]);
  }
  return (code) => codes.has(code) || classes.has(Math.floor(code / 100));
}

function warcDate(ms: number, version: WarcVersion): string {
  const iso = new Date(ms).toISOString();
  return version === '1.0' ? `${iso.slice(0, 19)}Z` : iso;
}

const recordId = () => `<urn:uuid:${randomUUID()}>`;

const PROFILE_NOT_MODIFIED = {
  '1.0': 'http://netpreserve.org/warc/1.0/revisit/server-not-modified',
  '1.1': 'http://netpreserve.org/warc/1.1/revisit/server-not-modified',
} as const;

/** The records of one HTTP answer, in file order. `main` is the response or revisit record. */
export interface AnswerRecords {
  readonly request?: WARCRecord;
  readonly main: WARCRecord;
  readonly date: string;
}

/**
 * The WARC records of one answer: a `request` record (when asked for) and a `response` record, or a
 * `revisit` record (profile server-not-modified) for a 304. The two point at each other with
 * WARC-Concurrent-To. A revisit names the capture it refers to when the URL's metadata kept it
 * (warc.date and warc.digest persisted).
 */
export function answerRecords(
  answer: ArchivedAnswer,
  options: { readonly version: WarcVersion; readonly requestRecords: boolean },
): AnswerRecords {
  const { url, exchange: x, statusCode } = answer;
  const warcVersion = options.version === '1.0' ? 'WARC/1.0' : 'WARC/1.1';
  const date = warcDate(x.requestTime, options.version);
  const mainId = recordId();
  const requestId = options.requestRecords ? recordId() : undefined;
  const revisit = statusCode === 304;
  const common = (id: string, type: string): [string, string][] => [
    ['WARC-Type', type],
    ['WARC-Record-ID', id],
    ['WARC-Target-URI', url],
    ['WARC-Date', date],
    ...(x.ip ? ([['WARC-IP-Address', x.ip]] as [string, string][]) : []),
  ];

  const mainHeaders = common(mainId, revisit ? 'revisit' : 'response');
  if (requestId) mainHeaders.push(['WARC-Concurrent-To', requestId]);
  if (revisit) {
    mainHeaders.push(['WARC-Refers-To-Target-URI', url]);
    const before = answer.metadata.getFirstValue(MD.warcDate);
    if (before) mainHeaders.push(['WARC-Refers-To-Date', before]);
    const digest = answer.metadata.getFirstValue(MD.warcDigest);
    if (digest) mainHeaders.push(['WARC-Payload-Digest', digest]);
  }
  if (x.trimmed) mainHeaders.push(['WARC-Truncated', 'length']);
  const statusline = wireText(`HTTP/1.1 ${statusCode}${x.statusText ? ` ${x.statusText}` : ''}`);
  const main = WARCRecord.create(
    {
      url,
      date,
      type: revisit ? 'revisit' : 'response',
      warcVersion,
      warcHeaders: mainHeaders,
      statusline,
      httpHeaders: archivedResponseHeaders(x.rawHeaders, revisit ? 0 : x.payload.length, x.decoded),
      keepHeadersCase: true,
    },
    revisit || x.payload.length === 0 ? [] : [x.payload],
  );
  // warcio gives every revisit the identical-payload-digest profile; a 304 is server-not-modified.
  if (revisit) main.warcHeaders.headers.set('WARC-Profile', PROFILE_NOT_MODIFIED[options.version]);
  digest(main, revisit ? EMPTY : x.payload, !revisit);

  if (!requestId) return { main, date };
  const requestHeaders = common(requestId, 'request');
  requestHeaders.push(['WARC-Concurrent-To', mainId]);
  const request = WARCRecord.create(
    {
      url,
      date,
      type: 'request',
      warcVersion,
      warcHeaders: requestHeaders,
      statusline: wireText(`${x.method} ${x.target} HTTP/1.1`),
      httpHeaders: x.requestHeaders.map(([n, v]) => [n, wireText(v)] as [string, string]),
      keepHeadersCase: true,
    },
    [],
  );
  digest(request, EMPTY, true);
  return { request, main, date };
}

/** The `warcinfo` record that begins every file. */
export function warcinfoRecord(
  filename: string,
  fields: Readonly<Record<string, string>>,
  version: WarcVersion,
  now: number,
): WARCRecord {
  const date = warcDate(now, version);
  return WARCRecord.createWARCInfo(
    {
      filename,
      date,
      warcVersion: version === '1.0' ? 'WARC/1.0' : 'WARC/1.1',
      // Listed in the order they are written (warcio fills in the values it sets itself).
      warcHeaders: [
        ['WARC-Type', 'warcinfo'],
        ['WARC-Record-ID', recordId()],
        ['WARC-Date', date],
        ['WARC-Filename', filename],
      ],
    },
    { ...fields },
  );
}

/** A record's bytes (uncompressed), serialised by warcio (which fills in Content-Length). */
export async function serialize(record: WARCRecord): Promise<Buffer> {
  const bytes = await WARCSerializer.serialize(record, { digest: DIGEST });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
