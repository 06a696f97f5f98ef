import type { Route } from 'playwright-core';
import type { SubrequestAnswer, SubrequestInit } from '../protocol/http/client.js';
import { FetchException } from '../protocol/http/errors.js';
import type { MetadataView } from '../protocol/types.js';
import type { FilterHints } from '../urlfilters/types.js';

/** What the gate needs of the crawl: its HTTP client, URL filters and host health. */
export interface SubrequestDeps {
  /** HttpProtocol.subrequest: the address filter, proxies, limits and deadline of our own fetches. */
  fetch(url: string, init: SubrequestInit, signal?: AbortSignal): Promise<SubrequestAnswer>;
  /** The crawl's URL filters (their own instance), asked with the hint `subrequest`. */
  readonly filter: {
    filter(source: URL | null, md: MetadataView | null, url: string, hints?: FilterHints): string | null;
  };
  /** playwright.skip.resource.types */
  readonly skipTypes: ReadonlySet<string>;
  /** playwright.subrequests.max */
  readonly max: number;
  /** Where answers (or their absence) are reported, for the health of the page's host. */
  readonly report?: (pageUrl: string, url: string, code: number | undefined, retryAfter?: string) => void;
}

/** What a render's requests came to, for `render.subrequests*` and the summary. */
export interface SubrequestCounts {
  /** Fetched and handed to the page (whatever the answer). */
  fetched: number;
  /** Refused before they left: a skipped type, the cap, the URL filters, the address filter. */
  refused: number;
  /** Sent and not answered (a timeout, a refused connection). */
  failed: number;
}

/** Header fields that described the answer as sent, not the decoded body handed to the page. */
const NOT_PASSED = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

function pageHeaders(headers: Readonly<Record<string, readonly string[]>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, values] of Object.entries(headers)) {
    if (NOT_PASSED.has(k) || k.startsWith('_')) continue;
    // Playwright's convention for repeated fields: set-cookie lines apart, others joined.
    out[k] = values.join(k === 'set-cookie' ? '\n' : ', ');
  }
  return out;
}

/**
 * The requests one rendered page makes besides its document, each decided before it leaves:
 * refused when its resource type is skipped, when the page already made `max` requests, when the
 * URL filters drop it (seen from the page) or when its address is excluded (checked by our own HTTP
 * client when it connects, so DNS cannot answer differently between check and connection);
 * otherwise fetched by the crawler and handed to the page. The browser itself reaches nothing.
 *
 * Lifecycle: one gate per render; `handle` every routed request; `close` when the render is done
 * (requests still in flight are aborted, later ones refused).
 */
export class SubrequestGate {
  readonly counts: SubrequestCounts = { fetched: 0, refused: 0, failed: 0 };
  private made = 0;
  private inFlight = 0;
  private lastChange: number;
  private readonly abort = new AbortController();
  private readonly source: URL;
  private settledWaiters: (() => void)[] = [];

  constructor(
    private readonly d: SubrequestDeps,
    private readonly pageUrl: string,
    private readonly pageMetadata: MetadataView,
  ) {
    this.source = new URL(pageUrl);
    this.lastChange = performance.now();
  }

  /** Requests being fetched now. */
  get pending(): number {
    return this.inFlight;
  }

  /** ms since a request started or ended. */
  quietFor(now = performance.now()): number {
    return now - this.lastChange;
  }

  /** Resolves at the next change of `pending` (or after `ms`). */
  changed(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const waiters = this.settledWaiters;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      waiters.push(done);
    });
  }

  close(): void {
    this.abort.abort();
    this.wake();
  }

  async handle(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    if (this.abort.signal.aborted || this.d.skipTypes.has(request.resourceType()) || !/^https?:/i.test(url))
      return this.refuse(route);
    if (this.made >= this.d.max) return this.refuse(route);
    this.made++;
    if (this.d.filter.filter(this.source, this.pageMetadata, url, { subrequest: true }) === null)
      return this.refuse(route);
    this.inFlight++;
    this.touch();
    try {
      const headers = await request.allHeaders();
      const body = request.postDataBuffer() ?? undefined;
      const answer = await this.d.fetch(
        url,
        { method: request.method(), headers, ...(body ? { body } : {}) },
        this.abort.signal,
      );
      this.counts.fetched++;
      this.d.report?.(this.pageUrl, url, answer.statusCode, answer.headers['retry-after']?.[0]);
      await route
        .fulfill({ status: answer.statusCode, headers: pageHeaders(answer.headers), body: answer.content })
        .catch(() => undefined);
    } catch (e) {
      const kind = e instanceof FetchException ? e.kind : undefined;
      if (kind === 'blockedAddress') this.counts.refused++;
      else if (kind !== 'aborted') {
        this.counts.failed++;
        this.d.report?.(this.pageUrl, url, undefined);
      }
      await route.abort(kind === 'blockedAddress' ? 'addressunreachable' : 'failed').catch(() => undefined);
    } finally {
      this.inFlight--;
      this.touch();
    }
  }

  private refuse(route: Route): Promise<void> {
    this.counts.refused++;
    return route.abort('blockedbyclient').catch(() => undefined);
  }

  private touch(): void {
    this.lastChange = performance.now();
    this.wake();
  }

  private wake(): void {
    const w = this.settledWaiters;
    this.settledWaiters = [];
    for (const done of w) done();
  }
}
