import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBody } from '../../../src/protocol/http/body.js';
import { DecodingError } from '../../../src/protocol/http/errors.js';

const NO_LIMIT = { contentLimit: -1, decodedLimit: -1 };

function chunked(data: Buffer, size = 16 * 1024): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) chunks.push(data.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
}

describe('response body', () => {
  const text = Buffer.from('hello world '.repeat(10_000));

  it('is read whole when no limit applies', async () => {
    const body = await readBody(chunked(text), undefined, NO_LIMIT);
    expect(body.content.equals(text)).toBe(true);
    expect(body.trimmed).toBeUndefined();
  });

  it('is cut at http.content.limit, marked trimmed for length, and the stream destroyed', async () => {
    const stream = chunked(text);
    const body = await readBody(stream, undefined, { contentLimit: 1000, decodedLimit: -1 });
    expect(body.content.length).toBe(1000);
    expect(body.content.equals(text.subarray(0, 1000))).toBe(true);
    expect(body.trimmed).toBe('length');
    expect(stream.destroyed).toBe(true);
  });

  it('is not trimmed when exactly as long as the limit', async () => {
    const body = await readBody(chunked(text), undefined, { contentLimit: text.length, decodedLimit: -1 });
    expect(body.trimmed).toBeUndefined();
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('is decoded from %s', async (coding, compress) => {
    const body = await readBody(chunked(compress(text)), [coding], NO_LIMIT);
    expect(body.content.equals(text)).toBe(true);
  });

  it('undoes stacked codings from the last applied', async () => {
    const body = await readBody(chunked(brotliCompressSync(gzipSync(text))), ['gzip, br'], NO_LIMIT);
    expect(body.content.equals(text)).toBe(true);
  });

  it('applies http.content.limit to the decoded content', async () => {
    const body = await readBody(chunked(gzipSync(text)), ['gzip'], {
      contentLimit: 5000,
      decodedLimit: 1_000_000,
    });
    expect(body.content.length).toBe(5000);
    expect(body.trimmed).toBe('length');
  });

  it('cuts a decompression bomb at http.decoded.limit without decoding the rest', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const stream = chunked(bomb, 1024);
    const body = await readBody(stream, ['gzip'], { contentLimit: -1, decodedLimit: 1024 * 1024 });
    expect(body.content.length).toBe(1024 * 1024);
    expect(body.trimmed).toBe('decoded-size');
    expect(stream.destroyed).toBe(true);
  });

  it('keeps what a truncated gzip stream yields', async () => {
    const gz = gzipSync(text);
    const body = await readBody(chunked(gz.subarray(0, gz.length / 2)), ['gzip'], NO_LIMIT);
    expect(body.content.length).toBeGreaterThan(0);
    expect(text.subarray(0, body.content.length).equals(body.content)).toBe(true);
  });

  it('fails with a DecodingError on content that is not what its encoding says', async () => {
    await expect(
      readBody(chunked(Buffer.from('plain text, not gzip')), ['gzip'], NO_LIMIT),
    ).rejects.toBeInstanceOf(DecodingError);
  });

  it('keeps a body in an encoding it cannot decode as sent', async () => {
    const raw = Buffer.from([1, 2, 3, 4]);
    const body = await readBody(chunked(raw), ['zstd'], NO_LIMIT);
    expect(body.content.equals(raw)).toBe(true);
  });

  it('passes the error of the body stream on unchanged', async () => {
    const failing = new Readable({
      read() {
        this.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
      },
    });
    await expect(readBody(failing, ['gzip'], NO_LIMIT)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});

describe('inflation ratio', () => {
  it('a body cut at http.content.limit after inflating past http.decoded.max.ratio is marked inflation-ratio', async () => {
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const body = await readBody(chunked(bomb, 1024), ['gzip'], {
      contentLimit: 2 * 1024 * 1024,
      decodedLimit: -1,
      maxRatio: 100,
    });
    expect(body.content.length).toBe(2 * 1024 * 1024);
    expect(body.trimmed).toBe('inflation-ratio');
  });

  it('an ordinary page cut at the same limit stays "length"', async () => {
    const rng = (i: number) => (i * 2654435761) >>> 24;
    const page = Buffer.from(Array.from({ length: 4 * 1024 * 1024 }, (_, i) => 0x61 + (rng(i) % 26)));
    const body = await readBody(chunked(gzipSync(page)), ['gzip'], {
      contentLimit: 2 * 1024 * 1024,
      decodedLimit: -1,
      maxRatio: 100,
    });
    expect(body.trimmed).toBe('length');
  });

  it('is not judged below 1 MiB decoded, nor with the check off', async () => {
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const small = await readBody(chunked(bomb, 1024), ['gzip'], {
      contentLimit: 65_536,
      decodedLimit: -1,
      maxRatio: 100,
    });
    expect(small.trimmed).toBe('length');
    const off = await readBody(chunked(bomb, 1024), ['gzip'], {
      contentLimit: 2 * 1024 * 1024,
      decodedLimit: -1,
      maxRatio: 0,
    });
    expect(off.trimmed).toBe('length');
  });
});
