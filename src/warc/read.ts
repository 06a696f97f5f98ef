import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { WARCParser } from 'warcio';
import { completeLength } from './recover.js';

/** One record of a WARC file, as `crawler warc ls` shows it. */
export interface ListedRecord {
  /** Byte offset of the record in the file (of its gzip member in a .warc.gz) and its length there. */
  readonly offset: number;
  readonly length: number;
  readonly type: string;
  readonly uri: string;
  readonly date: string;
  /** HTTP status of a response or revisit record. */
  readonly status?: number;
  /** The record's Content-Length: bytes of its block (HTTP head and payload). */
  readonly contentLength: number;
  readonly payloadDigest?: string;
}

/** The records of a WARC file (.warc or .warc.gz), read with warcio as replay tools read them. */
export async function* listRecords(path: string): AsyncGenerator<ListedRecord> {
  const parser = new WARCParser(createReadStream(path));
  for await (const record of parser) {
    await record.skipFully();
    const status = record.httpHeaders?.statusCode;
    yield {
      offset: parser.offset,
      length: parser.recordLength,
      type: record.warcType,
      uri: record.warcTargetURI ?? '',
      date: record.warcDate ?? '',
      ...(typeof status === 'number' && record.warcType !== 'request' ? { status } : {}),
      contentLength: record.warcContentLength,
      ...(record.warcPayloadDigest ? { payloadDigest: record.warcPayloadDigest } : {}),
    };
  }
}

/**
 * Where a WARC file's whole records end, when that is before the end of the file: for a .warc.gz
 * its whole gzip members (each one whole record); for a .warc each record's head, Content-Length
 * and the two CRLFs after its block. warcio reads a cut .warc.gz without complaint and can spin on a
 * cut .warc, so `crawler warc ls` checks this (a .warc before it lists it).
 */
export async function damagedAt(path: string): Promise<{ wholeBytes: number; size: number } | undefined> {
  const fh = await open(path, 'r');
  try {
    const { wholeBytes, size } = isGzipName(path) ? await completeLength(fh) : await plainCompleteLength(fh);
    return wholeBytes < size ? { wholeBytes, size } : undefined;
  } finally {
    await fh.close();
  }
}

export function isGzipName(path: string): boolean {
  return path.endsWith('.gz') || path.endsWith('.gz.open');
}

/** A record head larger than this is not one. */
const MAX_HEAD = 64 * 1024;

async function plainCompleteLength(fh: FileHandle): Promise<{ wholeBytes: number; size: number }> {
  const { size } = await fh.stat();
  const buf = Buffer.alloc(MAX_HEAD);
  let pos = 0;
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, MAX_HEAD, pos);
    const head = buf.subarray(0, bytesRead).toString('latin1');
    const end = head.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i.exec(head.slice(0, end + 2));
    if (!head.startsWith('WARC/') || end < 0 || !length) break;
    const next = pos + end + 4 + Number(length[1]) + 4;
    if (next > size) break;
    pos = next;
  }
  return { wholeBytes: pos, size };
}
