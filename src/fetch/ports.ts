import type { Metadata } from '../model/metadata.js';
import type { Status } from '../model/status.js';
import type { Exchange } from '../protocol/exchange.js';
import type { ResponseView } from './outcomes.js';

/** A URL handed to the fetcher, as the spout read it from the status index. */
export interface FetchItem {
  readonly url: string;
  readonly metadata: Metadata;
  /** Its status before this fetch, when known (for the transition log and released URLs). */
  readonly status?: Status;
  /** Its status document's key (host, domain or IP: the source's unit of work), when known. */
  readonly key?: string;
  /**
   * A soft-404 probe (src/soft404), not a URL of the crawl: its outcomes carry `probe` too, and go
   * back to the prober, never to the status index.
   */
  readonly probe?: true;
}

/**
 * What the fetcher tells of its queues, for the source to keep each host supplied (FetcherDeps.flow).
 * Both are called synchronously and must not throw.
 */
export interface FetchFlow {
  /**
   * A submitted URL left the fetcher's hands before a fetch: its fetch starts, or it went back
   * unfetched (refused, deferred, expired). Exactly once per submitted URL.
   */
  left(item: FetchItem): void;
  /**
   * The queue of `item` (its last URL) has nothing queued and nothing in fetch: it could fetch again
   * from `at` (its politeness delay or its host's pause over).
   */
  drained(item: FetchItem, at: number): void;
}

/** What the fetcher needs of the HTTP protocol. It never follows redirects and never retries. */
export interface FetchProtocol {
  /**
   * Fetches one URL. Resolves with any HTTP answer (any status code); rejects when there was no
   * answer, with a FetchException (protocol/http/errors.ts): its `fetchException` keyword goes into
   * the URL's metadata and its `kind` tells which documented failure it was. `exchange` (WARC
   * output) is there when the protocol was built to capture the heads.
   */
  fetch(
    url: string,
    metadata: Metadata,
  ): Promise<ResponseView & { readonly content: Buffer; readonly exchange?: Exchange }>;
  /**
   * For a protocol that makes requests of its own while fetching a page (rendering, src/render):
   * called once by the fetcher with where to report their answers, so that they count in the
   * health of the page's host.
   */
  reportTo?(sink: SubrequestSink): void;
}

/** Where a protocol reports the answers to the requests it made for a page (see `reportTo`). */
export interface SubrequestSink {
  /**
   * `pageUrl` (being fetched now) made a request to `url`, answered with `code`, or with none
   * (undefined); `retryAfter` is that answer's Retry-After header.
   */
  answered(pageUrl: string, url: string, code: number | undefined, retryAfter?: string): void;
}

/** robots.txt could not be read: the URL is disallowed for now, to be tried again later. */
export interface RobotsUnavailableView {
  /** `HTTP <code>` or a `fetch.exception` keyword. */
  readonly reason: string;
  /** No answer at all: a failure of the host to count, not a cached verdict. */
  readonly unreachable: boolean;
  /** When robots.txt will be asked again (the cached verdict expires), if known. */
  readonly retryAt?: number;
}

/** What the fetcher needs of robots.txt for one URL. */
export interface RobotsVerdict {
  isAllowed(url: string): boolean;
  /** Crawl-delay in ms, when the host's group gives one. */
  readonly crawlDelayMs?: number;
  /** `Sitemap:` lines. */
  readonly sitemaps: readonly string[];
  /** True when the rules came from the cache, false when they were fetched for this URL. */
  readonly fromCache: boolean;
  /** Set when robots.txt could not be read: nothing is allowed for now. */
  readonly unavailable?: RobotsUnavailableView;
}

export interface RobotsSource {
  /**
   * Never rejects: a robots.txt that cannot be fetched or answers with an error still yields rules
   * (allow-all, or forbid-for-now with `unavailable`, as RobotsService decides for that answer).
   */
  rulesFor(url: string): Promise<RobotsVerdict>;
}

/** The part of RobotsService (src/protocol/robots) the adapter below needs. */
interface RobotsLookupService {
  rulesFor(url: string): Promise<{
    rules: { isAllowed(url: string): boolean; crawlDelayMs?: number; sitemaps: readonly string[] };
    fresh: boolean;
    unavailable?: RobotsUnavailableView;
  }>;
}

/** Adapts the protocol layer's robots.txt service to what the fetcher reads. */
export function robotsSource(service: RobotsLookupService): RobotsSource {
  return {
    async rulesFor(url) {
      const { rules, fresh, unavailable } = await service.rulesFor(url);
      return {
        isAllowed: (u) => rules.isAllowed(u),
        crawlDelayMs: rules.crawlDelayMs,
        sitemaps: rules.sitemaps,
        fromCache: !fresh,
        ...(unavailable ? { unavailable } : {}),
      };
    },
  };
}
