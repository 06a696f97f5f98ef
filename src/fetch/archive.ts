import { DEFER_CAUSE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { Exchange } from '../protocol/exchange.js';
import { errorMessage } from '../util/errors.js';
import { deferral, type StatusOutcome } from './outcomes.js';
import type { FetchItem } from './ports.js';

/** One HTTP answer handed to the archive. */
export interface ArchivedAnswer {
  readonly url: string;
  /** The URL's metadata before this fetch: a revisit (304) reads the previous capture's keys. */
  readonly metadata: Metadata;
  readonly statusCode: number;
  readonly exchange: Exchange;
}

/** Where an answer was written: the `warc.*` metadata keys of the URL. */
export interface ArchiveLocation {
  /** The WARC file's name once closed (without `.open`), in warc.dir. */
  readonly file: string;
  /** Byte offset of the response (or revisit) record in that file, and its compressed length. */
  readonly offset: number;
  readonly length: number;
  /** WARC-Date of the record. */
  readonly date: string;
  /** WARC-Payload-Digest of a response record (a revisit refers to an earlier one). */
  readonly digest?: string;
}

/**
 * Where the fetcher archives what servers answered (WARC output). Lifecycle: built once at start-up,
 * `record` is called concurrently (once per HTTP answer, before the answer goes on), `close` once at
 * shutdown; a fetch that outlived the shutdown deadline may still call `record` after `close`,
 * which then writes nothing and resolves undefined (that URL was given up).
 *
 * Contract of `record`: it resolves once the answer is written (undefined when it is not one to
 * archive, e.g. its status code is not listed), so a slow disk holds the fetch thread back instead
 * of growing memory. It rejects only when a write failed for good (after its own retries); from then
 * on every call rejects, and the crawl is expected to stop.
 */
export interface Archive {
  record(answer: ArchivedAnswer): Promise<ArchiveLocation | undefined>;
  close(): Promise<void>;
}

/**
 * Archives one answer for the fetcher: `answer.metadata` is what was sent, `answer.outcomeMetadata`
 * what the status update will carry. Resolves to undefined when it may go on (its outcome metadata then
 * says where it was written), or to a deferral when the archive failed for good: its status
 * document keeps its state, due now (defer.cause warc.write.failed), so the URL comes back once the
 * crawl runs again with a working disk.
 */
export async function archiveAnswer(
  archive: Archive,
  item: FetchItem,
  answer: {
    readonly metadata: Metadata;
    readonly response: { readonly statusCode: number; readonly exchange?: Exchange };
    readonly outcomeMetadata: Metadata;
  },
  now: number,
): Promise<StatusOutcome | undefined> {
  const { metadata, response, outcomeMetadata } = answer;
  const { statusCode, exchange } = response;
  if (!exchange) return undefined;
  let at: ArchiveLocation | undefined;
  try {
    at = await archive.record({ url: item.url, metadata, statusCode, exchange });
  } catch (e) {
    return deferral(item.url, item.metadata, item.status, {
      until: now,
      now,
      cause: DEFER_CAUSE.archiveFailed,
      message: errorMessage(e),
    });
  }
  if (at) {
    outcomeMetadata.setValue(MD.warcFile, at.file);
    outcomeMetadata.setValue(MD.warcOffset, String(at.offset));
    outcomeMetadata.setValue(MD.warcLength, String(at.length));
    // A revisit keeps the date and digest of the capture it refers to.
    if (at.digest) {
      outcomeMetadata.setValue(MD.warcDate, at.date);
      outcomeMetadata.setValue(MD.warcDigest, at.digest);
    }
  }
  return undefined;
}
