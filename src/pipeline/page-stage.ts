import PQueue from 'p-queue';
import type { FoundUrl } from '../fetch/fetcher-ports.js';
import type { FetchItem } from '../fetch/ports.js';
import { ERROR_SOURCE, MD } from '../model/keys.js';
import type { Metadata } from '../model/metadata.js';
import type { MetadataTransfer } from '../model/metadata-transfer.js';
import type { StatusEvent } from '../model/status-updater.js';
import type {
  Outlink,
  OutlinkFilter,
  PageParser,
  ParsedPage,
  ParseResult,
  ParseStatus,
} from '../parse/types.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { IndexerStage } from './indexer-stage.js';
import type { CrawlMetrics } from './metrics.js';
import type { ContentStore, DocumentParser, PageChecks } from './ports.js';
import type { StatusWrites } from './status-writes.js';

export interface PageStageDeps {
  readonly parser: PageParser;
  readonly status: Pick<StatusWrites, 'discover'>;
  readonly content: ContentStore;
  /** URL filters for URLs the fetcher finds (redirect targets, robots.txt sitemaps). */
  readonly filter: OutlinkFilter;
  readonly transfer: Pick<MetadataTransfer, 'forOutlink'>;
  readonly metrics: CrawlMetrics;
  readonly log: Logger;
  /** The page's own status event (it settles the URL in the crawl loop). */
  readonly settle: (event: StatusEvent) => Promise<void>;
  /** The page is given up unchanged (its content write failed for now). */
  readonly giveUp: (url: string) => void;
  /** A stage broke its contract on this page: given up, logged. */
  readonly failed: (url: string, e: unknown) => void;
  /** After the shutdown deadline: late pages write nothing. */
  readonly closed: () => boolean;
  /** Near-duplicate and soft-404 checks between the parser and the indexer; none when both are off. */
  readonly checks?: Pick<PageChecks, 'judge' | 'room'>;
  /** The Tika stage, for the documents the shunt hands over (none with tika.enabled false). */
  readonly documents?: DocumentParser;
}

/**
 * A page's outlinks still being stored, or one of them failed for good (see PageStage.outlinks):
 * `stored` resolves to true once every one was stored, false when one was not. Undefined when all
 * were stored already (or none was needed).
 */
type LinksWritten = { readonly stored: Promise<boolean> } | undefined;

export interface PageStageOptions {
  /** Pages handed to the parser at once: a few per thread with parser threads. */
  readonly parseConcurrency: number;
  /** The parser runs on the event loop: a page is parsed by the fetch thread that got it. */
  readonly inlineParse?: boolean;
  /** Parsed pages waiting at most; the fetcher waits beyond it. */
  readonly parseBacklog: number;
}

/**
 * What happens to a fetched page: parsed, its outlinks written as DISCOVERED (those the status store
 * knows are skipped by URL first), its content indexed and then its own status settled. And the
 * URLs the fetcher finds besides (redirect targets, sitemaps named by robots.txt). Every page ends
 * in exactly one call of `settle`, `giveUp` or `failed`.
 */
export class PageStage {
  private readonly pool: PQueue;
  private readonly indexer: IndexerStage;
  /** Pages waiting for their near-duplicate / soft-404 verdict (not holding a fetch thread). */
  private readonly judging = new Set<Promise<void>>();
  /** What the fetcher found for a URL in flight (its redirect target), still being stored. */
  private readonly targets = new Map<string, Promise<boolean>>();

  constructor(
    private readonly d: PageStageDeps,
    private readonly options: PageStageOptions,
  ) {
    this.pool = new PQueue({ concurrency: options.parseConcurrency });
    this.indexer = new IndexerStage({
      content: d.content,
      emit: (e, linksStored) => void this.settleAfter(linksStored, e),
      giveUp: d.giveUp,
    });
  }

  /** Pages being parsed, waiting for a parser thread or for their verdict, and documents at Tika. */
  get busy(): number {
    return this.pool.size + this.pool.pending + this.judging.size + (this.d.documents?.busy ?? 0);
  }

  /** Resolves when no page is being parsed or judged and no document is at Tika. */
  async idle(): Promise<void> {
    // A page being parsed may turn out to be a document, and go on to the Tika stage.
    do {
      await this.pool.onIdle();
      await this.d.documents?.idle();
      while (this.judging.size > 0) await Promise.all([...this.judging]);
    } while (this.busy > 0);
  }

  /** Drops the pages still waiting for a parser or for Tika (shutdown deadline). */
  clear(): void {
    this.pool.clear();
    this.d.documents?.clear();
  }

  /**
   * A fetched page. Resolves once it is parsed (inline parser) or queued for the parser threads;
   * waits while their backlog is full, which holds the fetch thread back.
   */
  async page(url: string, metadata: Metadata, content: Buffer): Promise<void> {
    // A sitemap its robots.txt named is found again with robots.txt: the page does not wait for it.
    this.targets.delete(url);
    if (this.d.closed()) return;
    this.d.metrics.fetched++;
    this.d.metrics.bytes += content.length;
    if (this.options.inlineParse) {
      await this.parse(url, metadata, content).catch((e: unknown) => this.d.failed(url, e));
      return;
    }
    await this.pool.onSizeLessThan(this.options.parseBacklog);
    this.pool.add(() => this.parse(url, metadata, content)).catch((e: unknown) => this.d.failed(url, e));
  }

  /**
   * The fetcher's status of a URL (REDIRECTION, an error...): written once the target the fetcher
   * found for it is stored, or the URL given up when that write failed, so that a redirect is never
   * stored while its target is not (nothing else may link to the target).
   */
  status(event: StatusEvent): Promise<void> {
    const stored = this.targets.get(event.url);
    this.targets.delete(event.url);
    return this.settleAfter(stored, event);
  }

  /**
   * A URL the fetcher found (a redirect target, a sitemap robots.txt names): DISCOVERED if kept; a
   * sitemap's document says so (`isSitemap`).
   */
  discovered(source: FetchItem, target: string, found?: FoundUrl): void {
    let sourceUrl: URL;
    try {
      sourceUrl = new URL(source.url);
    } catch {
      return;
    }
    const sitemap = found?.sitemap === true;
    const kept = this.d.filter.filter(sourceUrl, source.metadata, target, sitemap ? { sitemap } : undefined);
    if (kept === null) return;
    const md = this.d.transfer.forOutlink(source.url, source.metadata);
    if (sitemap) md.setValue(MD.isSitemap, 'true');
    const stored = this.outlinks([{ url: kept, metadata: md }]).then(
      (written) => (written ? written.stored : true),
      (e: unknown) => {
        this.d.log.error({ url: kept, err: errorMessage(e) }, 'a discovered URL could not be written');
        return false;
      },
    );
    // Each URL in flight ends in one status or page (see FetcherSink): the entry goes with it.
    const before = this.targets.get(source.url);
    this.targets.set(source.url, before ? Promise.all([before, stored]).then(([a, b]) => a && b) : stored);
  }

  /**
   * Writes the links as DISCOVERED. Resolves once the writes are accepted, to undefined when none
   * was needed, else to what resolves once they are settled: the page's own status waits for it,
   * and a link that failed for good makes the page given up, so that it is fetched again and the
   * link found again.
   */
  private async outlinks(links: readonly Outlink[]): Promise<LinksWritten> {
    if (this.d.closed()) return undefined;
    this.d.metrics.discovered += links.length;
    const written = await this.d.status.discover(links, this.d.closed);
    return written && { stored: written.done };
  }

  private async parse(url: string, metadata: Metadata, content: Buffer): Promise<void> {
    let result: ParseResult;
    try {
      result = await this.d.parser.parse({ url, metadata, content });
    } catch (e) {
      // The parser's contract is not to throw; if it does, the page still gets its one event.
      const md = metadata.copy();
      md.setValue(MD.errorSource, ERROR_SOURCE.parsing);
      md.setValue(MD.errorMessage, errorMessage(e));
      await this.d.settle({ url, status: 'ERROR', metadata: md });
      return;
    }
    if (result.kind === 'document') return this.document(url, result, content);
    const checks = this.d.checks;
    if (result.kind !== 'parsed' || !checks) return this.finish(url, result);
    const j = checks.judge(result);
    // A page that cannot be a soft 404 gives its links at once; the others once judged.
    const written = j.linksNow ? await this.outlinks(result.outlinks) : undefined;
    if (!(j.verdict instanceof Promise)) return this.judged(result, j.verdict, j.linksNow, written);
    // The fetch thread goes on; the page waits for its group's lookup (bounded by `room`), holding
    // its outlinks only when they are still to be written: what waits outlives young collections.
    const linksNow = j.linksNow;
    const waiting = linksNow ? { ...result, outlinks: [] } : result;
    const done = j.verdict
      .then((v) => this.judged(waiting, v, linksNow, written))
      .catch((e: unknown) => this.d.failed(url, e))
      .finally(() => this.judging.delete(done));
    this.judging.add(done);
    await checks.room();
  }

  /** A soft 404 ends FETCH_ERROR without its links; any other page goes on to the indexer. */
  private async judged(
    page: ParsedPage,
    verdict: 'index' | 'soft404',
    linksDone: boolean,
    written: LinksWritten,
  ): Promise<void> {
    if (this.d.closed()) return;
    if (verdict === 'soft404') {
      return this.settleAfter(written?.stored, {
        url: page.url,
        status: 'FETCH_ERROR',
        metadata: page.metadata,
      });
    }
    const links = linksDone ? written : await this.outlinks(page.outlinks);
    await this.indexer.index(page, links?.stored);
  }

  /**
   * The outlinks of a parsed page or document, then its content and status (or its status alone);
   * the status once the outlinks are stored.
   */
  private async finish(url: string, result: ParsedPage | ParseStatus): Promise<void> {
    const written = await this.outlinks(result.outlinks);
    if (result.kind === 'parsed')
      await this.indexer.index(
        { url, metadata: result.metadata, text: result.text, markdown: result.markdown },
        written?.stored,
      );
    else await this.settleAfter(written?.stored, { url, status: result.status, metadata: result.metadata });
  }

  /**
   * The URL's own status once what it found (outlinks, a redirect target) is stored: at once when
   * nothing is pending, else later, without holding the fetch thread for a bulk round trip; the URL
   * given up unchanged when one of them failed for good, so that it is fetched again and its links
   * found again.
   */
  private async settleAfter(linksStored: Promise<boolean> | undefined, event: StatusEvent): Promise<void> {
    if (!linksStored) return this.d.settle(event);
    linksStored
      .then((stored) => (stored ? this.d.settle(event) : this.d.giveUp(event.url)))
      .catch((e: unknown) => this.d.failed(event.url, e));
  }

  /**
   * A document the shunt handed over: queued for the Tika stage (waiting while its backlog is full,
   * which holds the parser and so the fetcher back); its result is finished there.
   */
  private async document(url: string, doc: Extract<ParseResult, { kind: 'document' }>, content: Buffer) {
    const documents = this.d.documents;
    if (!documents) throw new Error(`the parser handed ${url} to a Tika stage this crawl does not have`);
    await documents.room();
    if (this.d.closed()) return;
    documents.parse(doc, content, (r) => this.finish(url, r)).catch((e: unknown) => this.d.failed(url, e));
  }
}
