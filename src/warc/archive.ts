import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Archive, ArchivedAnswer, ArchiveLocation } from '../fetch/archive.js';
import { CrawlerError, errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { WarcFiles } from './files.js';
import { type AnswerRecords, answerRecords, serialize, type WarcVersion } from './records.js';

const gzipAsync = promisify(zlib.gzip);
/**
 * Below this size a member is compressed on the event loop: the thread pool's hand-over costs more
 * CPU than compressing a page of a few KB (measured 0.16 ms in line against 0.27 ms handed over for
 * 10 KB); larger bodies go to the pool so that the event loop is never held for long.
 */
const INLINE_GZIP = 64 * 1024;

/** One gzip member per record: record-at-time compression, as WARC readers expect of .warc.gz. */
export function gzipMember(bytes: Buffer): Promise<Buffer> {
  return bytes.length < INLINE_GZIP ? Promise.resolve(zlib.gzipSync(bytes)) : gzipAsync(bytes);
}

/** A WARC write that failed warc.write.attempts times: the crawl stops (code WARC_WRITE_FAILED). */
export class WarcWriteError extends CrawlerError {}

export interface WarcArchiveOptions {
  readonly files: Pick<WarcFiles, 'append' | 'close'>;
  /** For the message: warc.dir as configured. */
  readonly dir: string;
  readonly version: WarcVersion;
  readonly requestRecords: boolean;
  /** warc.status.codes */
  readonly archived: (statusCode: number) => boolean;
  /** warc.write.attempts */
  readonly attempts: number;
  /** Wait before the n-th retry: n times this. */
  readonly backoffMs: number;
  readonly log: Logger;
  /** Called once, when a write failed for good; the crawl should stop. */
  readonly onFailure?: (error: WarcWriteError) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * WARC output: each answer becomes its records (warcio serialises them and computes the SHA-1
 * digests), each record one gzip member, appended to the rotating files in one write. Records are
 * built and compressed concurrently; only the append is one at a time. See `Archive` for the
 * contract; a failed write is undone and tried again before the archive gives up for good.
 */
export class WarcArchive implements Archive {
  private failure: WarcWriteError | undefined;
  private closed = false;
  /** Answers skipped because no record could be built for them; for logs and tests. */
  unwritable = 0;

  constructor(private readonly o: WarcArchiveOptions) {}

  /** The error that stopped the archive, if any. */
  get failed(): WarcWriteError | undefined {
    return this.failure;
  }

  async record(answer: ArchivedAnswer): Promise<ArchiveLocation | undefined> {
    if (this.failure) throw this.failure;
    // A fetch that outlived the shutdown deadline: its URL was given up; no new file is begun.
    if (this.closed) return undefined;
    if (!this.o.archived(answer.statusCode)) return undefined;
    let records: AnswerRecords;
    let members: Buffer[];
    try {
      records = answerRecords(answer, { version: this.o.version, requestRecords: this.o.requestRecords });
      const ordered = records.request ? [records.request, records.main] : [records.main];
      members = await Promise.all(ordered.map(async (r) => gzipMember(await serialize(r))));
    } catch (e) {
      // An answer warcio cannot write (e.g. a server repeating a WARC-* header field) is that
      // answer's problem, not the disk's: it is logged and goes on unarchived.
      this.unwritable++;
      this.o.log.warn(
        { url: answer.url, err: errorMessage(e) },
        'answer not archived: no WARC record can hold it',
      );
      return undefined;
    }
    const digest = records.main.warcType === 'response' ? records.main.warcPayloadDigest : undefined;
    for (let attempt = 1; ; attempt++) {
      if (this.failure) throw this.failure;
      try {
        const at = await this.o.files.append(members);
        return {
          file: at.file,
          offset: at.offsets.at(-1)!,
          length: members.at(-1)!.length,
          date: records.date,
          ...(digest ? { digest } : {}),
        };
      } catch (e) {
        if (attempt >= this.o.attempts) throw this.fail(e, attempt);
        this.o.log.warn(
          { err: errorMessage(e), attempt, url: answer.url, dir: this.o.dir },
          'WARC write failed; undone and tried again',
        );
        await sleep(this.o.backoffMs * attempt);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.o.files.close();
  }

  private fail(e: unknown, attempts: number): WarcWriteError {
    if (this.failure) return this.failure;
    this.failure = new WarcWriteError(
      'WARC_WRITE_FAILED',
      `cannot write WARC records to warc.dir "${this.o.dir}" (${attempts} tries): ${errorMessage(e)}; ` +
        'the crawl stops and the URLs not archived keep their state: fix the disk or warc.dir, then start again',
      { cause: e },
    );
    this.o.onFailure?.(this.failure);
    return this.failure;
  }
}
