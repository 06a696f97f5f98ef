import { createHash } from 'node:crypto';
import type { ArchivedAnswer } from '../../../src/fetch/archive.js';
import { Metadata } from '../../../src/model/metadata.js';
import type { Exchange } from '../../../src/protocol/exchange.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 of a SHA-1, written here independently of warcio: what WARC readers compute. */
export function sha1Base32(...parts: (Buffer | string)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  const bytes = h.digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return `sha1:${out}`;
}

export const T0 = Date.UTC(2025, 0, 1, 12, 30, 15, 250);

/** An answer as the fetcher hands it to the archive. */
export function answer(
  o: {
    url?: string;
    status?: number;
    statusText?: string;
    raw?: string[];
    payload?: Buffer;
    decoded?: boolean;
    trimmed?: 'length';
    metadata?: Metadata;
    ip?: string;
  } = {},
): ArchivedAnswer {
  const url = o.url ?? 'http://site.test/page?q=1';
  const target = new URL(url);
  const exchange: Exchange = {
    requestTime: T0,
    method: 'GET',
    target: target.pathname + target.search,
    requestHeaders: [
      ['host', target.host],
      ['connection', 'keep-alive'],
      ['user-agent', 'testbot'],
    ],
    statusText: o.statusText ?? 'OK',
    rawHeaders: o.raw ?? ['Content-Type', 'text/plain'],
    payload: o.payload ?? Buffer.from('hello'),
    decoded: o.decoded ?? false,
    ...(o.trimmed ? { trimmed: o.trimmed } : {}),
    ...(o.ip === undefined ? { ip: '127.0.0.9' } : o.ip ? { ip: o.ip } : {}),
  };
  return { url, metadata: o.metadata ?? new Metadata(), statusCode: o.status ?? 200, exchange };
}
