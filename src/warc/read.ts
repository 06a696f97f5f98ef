import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
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
 * For a .warc.gz file: where its whole gzip members (each one whole WARC record) end, when that is
 * before the end of the file. warcio reads a cut file without complaint, so `crawler warc ls`
 * checks this too.
 */
export async function damagedAt(path: string): Promise<{ wholeBytes: number; size: number } | undefined> {
  if (!path.endsWith('.gz') && !path.endsWith('.gz.open')) return undefined;
  const fh = await open(path, 'r');
  try {
    const { wholeBytes, size } = await completeLength(fh);
    return wholeBytes < size ? { wholeBytes, size } : undefined;
  } finally {
    await fh.close();
  }
}
