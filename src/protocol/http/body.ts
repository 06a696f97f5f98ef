import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { TrimReason } from '../types.js';
import { DecodingError } from './errors.js';

export interface BodyLimits {
  /** http.content.limit (or the URL's override): bytes of content kept; negative = no limit. */
  readonly contentLimit: number;
  /** http.decoded.limit: bytes decoded from a compressed body; negative = no limit. */
  readonly decodedLimit: number;
  /**
   * http.decoded.max.ratio: a compressed body cut at a limit that decoded to more than this many
   * times the bytes it was sent as is an inflation bomb (`inflation-ratio`); 0 or less = no check.
   */
  readonly maxRatio?: number;
}

/** Below this many decoded bytes the ratio says nothing: a short page of spaces compresses well too. */
export const RATIO_FLOOR = 1024 * 1024;

export interface Body {
  readonly content: Buffer;
  readonly trimmed?: TrimReason;
}

/** What we announce in Accept-Encoding: exactly what `readBody` can decode. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

// Lenient like browsers: a stream cut short yields what it had instead of an error.
const GZIP_OPTIONS = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => zlib.createGunzip(GZIP_OPTIONS),
  'x-gzip': () => zlib.createGunzip(GZIP_OPTIONS),
  // RFC 9110 "deflate" is zlib-wrapped; Unzip also accepts servers that send gzip under this name.
  deflate: () => zlib.createUnzip(GZIP_OPTIONS),
  br: () => zlib.createBrotliDecompress(BROTLI_OPTIONS),
};

/** The codings of Content-Encoding header values in the order applied, lower case, identity left out. */
export function codingsOf(contentEncoding: readonly string[] | undefined): string[] {
  return (contentEncoding ?? [])
    .flatMap((v) => v.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** Whether `readBody` undoes this coding (one of `codingsOf`). */
export function canDecode(coding: string): boolean {
  return Object.hasOwn(DECODERS, coding);
}

/**
 * Decoders for a Content-Encoding header, outermost coding first. Undefined when a coding is unknown
 * (zstd, compress...): the body is then kept as sent, since we did not ask for it and cannot undo it.
 */
export function decodersFor(contentEncoding: readonly string[] | undefined): Transform[] | undefined {
  const codings = codingsOf(contentEncoding);
  if (!codings.every(canDecode)) return undefined;
  // Codings are listed in the order they were applied, so they are undone from the last.
  return codings.reverse().map((c) => DECODERS[c]!());
}

// pipeline's typings have no overload for a spread of transforms followed by an async sink.
const pipelineOf = pipeline as (...stages: unknown[]) => Promise<void>;

/** Collects chunks up to a limit; `add` returns false once the limit is reached. */
class Sink {
  private readonly chunks: Buffer[] = [];
  size = 0;
  full = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): boolean {
    if (this.limit >= 0 && this.size + chunk.length > this.limit) {
      const room = this.limit - this.size;
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.full = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  get content(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
  }
}

/**
 * Reads a response body within the limits, decoding its Content-Encoding. Once a limit is reached
 * the body stream is destroyed, which makes undici drop the connection: the rest of a large body is
 * never read, so memory stays at the limit whatever the server sends. A decompression bomb is cut at
 * the decoded limit the same way (trimmed, reason `decoded-size`), never decoded in full; one cut at
 * the content limit after inflating more than `maxRatio` times is marked `inflation-ratio`.
 */
export async function readBody(
  body: Readable,
  contentEncoding: readonly string[] | undefined,
  limits: BodyLimits,
): Promise<Body> {
  const decoders = decodersFor(contentEncoding) ?? [];
  if (decoders.length === 0) {
    const sink = new Sink(limits.contentLimit);
    for await (const chunk of body) if (!sink.add(chunk as Buffer)) break;
    if (sink.full) body.destroy();
    return sink.full ? { content: sink.content, trimmed: 'length' } : { content: sink.content };
  }

  const { contentLimit: c, decodedLimit: d } = limits;
  const byDecodedLimit = d >= 0 && (c < 0 || d < c);
  const sink = new Sink(byDecodedLimit ? d : c);
  let encoded = 0;
  body.on('data', (chunk: Buffer) => {
    encoded += chunk.length;
  });
  // pipeline hands one stream's error to the others, so only the first error tells who failed.
  let first: { from: 'body' | 'decoder'; error: unknown } | undefined;
  body.once('error', (error) => (first ??= { from: 'body', error }));
  for (const decoder of decoders) decoder.once('error', (error) => (first ??= { from: 'decoder', error }));
  try {
    await pipelineOf(body, ...decoders, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) if (!sink.add(chunk)) return;
    });
  } catch (e) {
    // Stopping early makes pipeline report a premature close; that is our own doing.
    if (!sink.full) {
      if (first?.from === 'decoder' && first.error === e) {
        throw new DecodingError(`cannot decode ${contentEncoding?.join(', ')} content: ${String(e)}`, {
          cause: e,
        });
      }
      throw e;
    }
  } finally {
    if (sink.full) {
      body.destroy();
      for (const decoder of decoders) decoder.destroy();
    }
  }
  if (!sink.full) return { content: sink.content };
  if (byDecodedLimit) return { content: sink.content, trimmed: 'decoded-size' };
  // Cut at http.content.limit: an ordinary long page, or a bomb that would have gone on for ever.
  const ratio = limits.maxRatio ?? 0;
  const bomb = ratio > 0 && sink.size >= RATIO_FLOOR && sink.size > ratio * Math.max(1, encoded);
  return { content: sink.content, trimmed: bomb ? 'inflation-ratio' : 'length' };
}
